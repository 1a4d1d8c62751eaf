import {
  ArrowsRightLeftIcon,
  BuildingOffice2Icon,
  GlobeAltIcon,
  UserIcon,
  UsersIcon,
} from '@heroicons/react/24/outline'
import { LOCATION_FORM_LABELS, LOCATIONS, type Location } from '../../../../shared/constants.ts'
import type { Choice } from './choice-group.tsx'

/** Maximum mentees: 1 or 2 (spec section 9). */
export const MENTEE_CHOICES: Choice<number>[] = [
  { value: 1, label: '1 mentee', hint: 'One-to-one mentoring', icon: UserIcon },
  { value: 2, label: '2 mentees', hint: 'Mentor two people at once', icon: UsersIcon },
]

const LOCATION_ICONS = {
  online: GlobeAltIcon,
  'in-person': BuildingOffice2Icon,
  both: ArrowsRightLeftIcon,
}
const LOCATION_HINTS = {
  online: 'Video calls and chat',
  'in-person': 'Meet at the office',
  both: 'Online or in person',
}
/** Location with the form's labels (spec section 9): Online Only, In-Person Only, Both. */
export const LOCATION_CHOICES: Choice<Location>[] = LOCATIONS.map((value) => ({
  value,
  label: LOCATION_FORM_LABELS[value],
  hint: LOCATION_HINTS[value],
  icon: LOCATION_ICONS[value],
}))
