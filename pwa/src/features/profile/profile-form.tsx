import { Description, Label, Field as SwitchField, Textarea } from '@headlessui/react'
import { InformationCircleIcon } from '@heroicons/react/20/solid'
import { type FormEvent, useState } from 'react'
import {
  type Location,
  SENIORITY_LABELS,
  SENIORITY_LEVELS,
  type Seniority,
  TEXT_MAX_LENGTH,
} from '../../../../shared/constants.ts'
import { checkEditProfile, type User } from '../../../../shared/user.ts'
import { InterestsPicker } from '../../components/interests-picker.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardBody } from '../../components/ui/card.tsx'
import { controlClasses, Field } from '../../components/ui/field.tsx'
import { Select, type SelectOption } from '../../components/ui/select.tsx'
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx'
import { useChange } from '../../lib/use-change.ts'
import { useMutations } from '../../sync/engine/react.ts'

type SeniorityChoice = Seniority | 'none'
type LocationChoice = Location | 'none'
type Draft = {
  seniority?: SeniorityChoice
  bio?: string
  interests?: string[]
  lookingForMentor?: boolean
  preferredLocation?: LocationChoice
}

const LOCATION_OPTIONS: SelectOption<LocationChoice>[] = [
  { value: 'none', label: 'No preference' },
  { value: 'online', label: 'Online' },
  { value: 'in-person', label: 'In person' },
  { value: 'both', label: 'Online or in person' },
]

const SENIORITY_OPTIONS: SelectOption<SeniorityChoice>[] = [
  { value: 'none', label: 'Not specified' },
  ...SENIORITY_LEVELS.map((level) => ({ value: level, label: SENIORITY_LABELS[level] })),
]

/**
 * A profile's seniority, bio and interests as a form with Save Changes, for
 * the owner and administrators (shared/user.ts checkEditProfile); everyone
 * else reads the profile (profile-view.tsx).
 */
export function ProfileForm(props: { user: User; viewer: User }) {
  const { user, viewer } = props
  const mutate = useMutations()
  const change = useChange()
  const canEdit = checkEditProfile(viewer, user.id).ok
  const asAdmin = canEdit && viewer.id !== user.id

  // The fields show the live row (so a change made elsewhere arrives) until the person edits them.
  const [draft, setDraft] = useState<Draft>({})
  const seniority: SeniorityChoice = draft.seniority ?? user.seniority ?? 'none'
  const bio = draft.bio ?? user.bio
  const interests = draft.interests ?? user.interests
  const lookingForMentor = draft.lookingForMentor ?? user.lookingForMentor ?? false
  const preferredLocation: LocationChoice =
    draft.preferredLocation ?? user.preferredLocation ?? 'none'
  const edit = (patch: Draft) => setDraft((current) => ({ ...current, ...patch }))
  const [saving, setSaving] = useState(false)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    try {
      const outcome = await change(
        () =>
          mutate.updateProfile(user.username, {
            seniority: seniority === 'none' ? null : seniority,
            bio,
            interests,
            lookingForMentor,
            preferredLocation: preferredLocation === 'none' ? null : preferredLocation,
          }),
        { success: 'Profile updated successfully' },
      )
      // Saved, or kept on this device: the row now holds the edits. Refused: keep them to fix.
      if (outcome.kind === 'saved' || outcome.kind === 'waiting') setDraft({})
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card>
      <form onSubmit={save} aria-label="Profile details">
        <CardBody className="space-y-6">
          <div>
            <h2 className="text-lg font-semibold text-slate-900 dark:text-white">About</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Mentors and mentees see these details when they decide who to work with.
            </p>
          </div>

          {asAdmin && (
            <div
              className="flex gap-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-600/25 ring-inset dark:bg-amber-950/50 dark:text-amber-200 dark:ring-amber-400/30"
              role="note"
            >
              <InformationCircleIcon className="size-5 shrink-0" aria-hidden="true" />
              <p>
                You are editing this profile as an administrator. Changes are saved to{' '}
                <strong>{user.full_name || user.username}</strong>'s profile.
              </p>
            </div>
          )}

          <Field label="Seniority" className="max-w-xs">
            <Select
              value={seniority}
              onChange={(value) => edit({ seniority: value })}
              options={SENIORITY_OPTIONS}
            />
          </Field>

          <Field label="Bio" hint="A few sentences about your role, experience and what you enjoy.">
            <Textarea
              value={bio}
              onChange={(event) => edit({ bio: event.target.value })}
              maxLength={TEXT_MAX_LENGTH}
              rows={5}
              className={`${controlClasses} min-h-24`}
              placeholder="Tell others about yourself…"
            />
          </Field>

          <Field label="Interests" hint="Pick from the list or type your own and press Enter.">
            <InterestsPicker value={interests} onChange={(next) => edit({ interests: next })} />
          </Field>

          <div className="space-y-5 border-t border-slate-200 pt-6 dark:border-slate-800">
            <div>
              <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Matching</h2>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                Recommendations use your interests, seniority and how you like to meet.
              </p>
            </div>
            <SwitchField className="flex items-start justify-between gap-4">
              <div className="min-w-0">
                <Label className="text-sm font-medium text-slate-900 dark:text-white">
                  Looking for a mentor
                </Label>
                <Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  Mentors with a free place can then find you under “People who might fit” on their
                  topics and invite you to apply. They see your name, seniority, interests and how
                  you like to meet. Off by default.
                </Description>
              </div>
              <ToggleSwitch
                checked={lookingForMentor}
                onChange={(next) => edit({ lookingForMentor: next })}
              />
            </SwitchField>
            <Field label="How you like to meet" className="max-w-xs">
              <Select
                value={preferredLocation}
                onChange={(value) => edit({ preferredLocation: value })}
                options={LOCATION_OPTIONS}
              />
            </Field>
          </div>
        </CardBody>
        <div className="flex justify-end border-t border-slate-200 px-5 py-4 sm:px-6 dark:border-slate-800">
          <Button type="submit" busy={saving}>
            Save Changes
          </Button>
        </div>
      </form>
    </Card>
  )
}
