import { NotificationBell } from '../features/notifications/bell.tsx'
import { SyncStatusButton } from '../features/sync-status/sync-status.tsx'
import { MobileMenu } from './mobile-menu.tsx'
import { UserMenu } from './user-menu.tsx'

/**
 * The bar's menus and popovers, one chunk loaded when first reached for (deferred-widget.tsx):
 * with Headless UI's menus and floating-ui, about a fifth of the app's start-up JS.
 */
export const shellWidgets = { MobileMenu, NotificationBell, SyncStatusButton, UserMenu }
