import type { z } from 'zod'
import { updateProgrammeSettingsSchema } from '../../../../shared/programme-settings.ts'
import { checkAdminister } from '../../../../shared/user.ts'
import { readSettings } from '../engine/view.ts'
import {
  actorOf,
  enforce,
  type MutationContext,
  type Queued,
  queueMutation,
  validate,
} from './mutation.ts'

export type ProgrammeSettingsUpdate = z.input<typeof updateProgrammeSettingsSchema>

/**
 * PATCH /api/admin/settings with only the settings that change (issue 18:
 * reminder thresholds, programme length, the pending-application limit).
 * The new values show at once; every device gets them with its next sync.
 */
export async function saveProgrammeSettings(
  ctx: MutationContext,
  update: ProgrammeSettingsUpdate,
  label = 'Save the programme settings',
): Promise<Queued> {
  const data = validate(updateProgrammeSettingsSchema, update)
  return queueMutation(ctx, async () => {
    enforce(
      checkAdminister(await actorOf(ctx), 'Only administrators can change programme settings.'),
    )
    const current = await readSettings(ctx.db)
    return {
      kind: 'save-settings',
      method: 'PATCH',
      path: '/api/admin/settings',
      body: data,
      label,
      effects: [
        {
          table: 'settings',
          rowId: 'programme',
          op: { create: { key: 'programme', ...current, ...data }, set: { ...data } },
        },
      ],
      confirmIn: 'settings',
    }
  })
}
