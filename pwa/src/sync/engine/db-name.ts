import { databaseName } from './db.ts'

/**
 * Which database holds a user's data on this device: `pairwise-<userId>`,
 * unless a page was frozen into WebKit's back/forward cache while it was
 * creating that database, before the browser handed it the upgrade. Such a
 * page cannot undo its open, and the name stays blocked for as long as the
 * page stays cached; as nothing was ever stored under it, the next page
 * starts under a new name (decision 0024). The choice is kept in
 * localStorage, per user.
 */
export type NameStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

const key = (userId: string) => `pairwise.db.${userId}`

export function browserNameStore(): NameStore | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}

/** The name of the user's database on this device. */
export function chooseDatabaseName(userId: string, store: NameStore | null): string {
  return store?.getItem(key(userId)) ?? databaseName(userId)
}

/** The next page of this user opens a database of a new name (`blocked` held nothing). */
export function moveOffBlockedName(userId: string, blocked: string, store: NameStore): void {
  if (chooseDatabaseName(userId, store) !== blocked) return
  store.setItem(key(userId), `${databaseName(userId)}-${Date.now().toString(36)}`)
}

/**
 * After a sign-out deleted the user's database: forget the chosen name, and
 * delete the databases of names left behind (not awaited: one may still be
 * blocked by a page in the back/forward cache).
 */
export function forgetDatabaseNames(
  userId: string,
  store: NameStore | null,
  factory: IDBFactory | undefined = globalThis.indexedDB,
): void {
  store?.removeItem(key(userId))
  const base = databaseName(userId)
  void factory
    ?.databases?.()
    .then((all) => {
      for (const { name } of all) {
        if (name === base || name?.startsWith(`${base}-`)) factory.deleteDatabase(name)
      }
    })
    .catch(() => {})
}
