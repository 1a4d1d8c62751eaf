import { ShieldCheckIcon } from '@heroicons/react/20/solid'
import { DevicePhoneMobileIcon, EnvelopeIcon } from '@heroicons/react/24/outline'
import type { PreferenceKey } from '../../../../shared/preferences.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { PageHeader } from '../../components/ui/page.tsx'
import { PageSpinner } from '../../components/ui/spinner.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { usePreferences } from '../../sync/engine/react.ts'
import { DeliverySettings } from './delivery-settings.tsx'
import { PreferenceSwitch } from './preference-switch.tsx'
import { PushDeviceSetting } from './push-device-setting.tsx'
import { QuietHoursSettings } from './quiet-hours.tsx'
import { REMINDERS_SWITCH, SWITCHES } from './switches.ts'
import { useSavePreferences } from './use-save-preferences.ts'

/**
 * /settings/notifications (spec section 2): the four e-mail preferences and
 * issue 18's reminders switch, how each category's e-mails arrive (as they
 * happen or in the daily digest), the time zone, quiet hours, each saved the
 * moment it is changed (shown at once, before the server answers), and this
 * device's push setting.
 */
export default function NotificationSettings() {
  useDocumentTitle('Notification Settings')
  const preferences = usePreferences()
  const save = useSavePreferences()

  const toggle = (key: PreferenceKey, value: boolean) => {
    if (!preferences) return
    void save({ emailNotifications: { [key]: value } })
  }

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Email Notification Preferences"
        description="Choose which e-mails Pairwise sends you. Changes are saved as soon as you make them."
      />
      <Card>
        <div className="flex items-center gap-3 border-b border-slate-200 px-5 py-4 sm:px-6 dark:border-slate-800">
          <EnvelopeIcon className="size-6 text-brand-600 dark:text-brand-400" aria-hidden="true" />
          <h2 className="font-semibold text-slate-900 dark:text-white">E-mail notifications</h2>
        </div>
        {preferences === undefined ? (
          <PageSpinner text="Loading preferences..." className="min-h-48" />
        ) : (
          <div className="divide-y divide-slate-200 dark:divide-slate-800">
            {SWITCHES.map((item) => (
              <PreferenceSwitch
                key={item.key}
                label={item.label}
                description={item.description}
                checked={preferences.emailNotifications[item.key]}
                onChange={(value) => toggle(item.key, value)}
                badge={
                  item.adminOnly && (
                    <Badge tone="violet">
                      <ShieldCheckIcon className="size-3.5" aria-hidden="true" />
                      Admin only
                    </Badge>
                  )
                }
              />
            ))}
            <PreferenceSwitch
              label={REMINDERS_SWITCH.label}
              description={REMINDERS_SWITCH.description}
              checked={preferences.reminders}
              onChange={(reminders) => void save({ reminders })}
            />
          </div>
        )}
      </Card>

      {preferences !== undefined && (
        <div className="mt-6 space-y-6">
          <DeliverySettings preferences={preferences} save={(change) => void save(change)} />
          <QuietHoursSettings quietHours={preferences.quietHours} save={save} />
        </div>
      )}

      <section aria-labelledby="this-device" className="mt-10">
        <div className="mb-3 flex items-center gap-2">
          <DevicePhoneMobileIcon
            className="size-6 text-slate-500 dark:text-slate-400"
            aria-hidden="true"
          />
          <h2 id="this-device" className="text-lg font-semibold text-slate-900 dark:text-white">
            This device
          </h2>
        </div>
        <Card>
          <CardBody>
            <PushDeviceSetting />
          </CardBody>
        </Card>
      </section>
    </div>
  )
}
