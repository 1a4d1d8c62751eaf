import {
  LOCATIONS,
  type Location,
  SENIORITY_LABELS,
  SENIORITY_LEVELS,
  type Seniority,
} from '../../../../shared/constants.ts'
import type { TopicListQuery } from '../../../../shared/topic.ts'
import { Field } from '../../components/ui/field.tsx'
import { Select, type SelectOption } from '../../components/ui/select.tsx'

type LocationFilter = Location | 'all'
type SeniorityFilter = Seniority | 'all'

/** The filter words of spec section 2 (they differ from the card labels: "Both", "In Person"). */
const LOCATION_FILTER_LABELS: Record<Location, string> = {
  online: 'Online',
  'in-person': 'In Person',
  both: 'Both',
}

const LOCATION_OPTIONS: SelectOption<LocationFilter>[] = [
  { value: 'all', label: 'All Locations' },
  ...LOCATIONS.map((value) => ({ value, label: LOCATION_FILTER_LABELS[value] })),
]

const SENIORITY_OPTIONS: SelectOption<SeniorityFilter>[] = [
  { value: 'all', label: 'All Levels' },
  ...SENIORITY_LEVELS.map((value) => ({ value, label: SENIORITY_LABELS[value] })),
]

export type TopicFilterValues = { location: LocationFilter; seniority: SeniorityFilter }

/** The filter values as the shared matcher's query (all → no condition). */
export function toQuery(values: TopicFilterValues): TopicListQuery {
  return {
    ...(values.location === 'all' ? {} : { location: values.location }),
    ...(values.seniority === 'all' ? {} : { seniority: values.seniority }),
  }
}

/** The location and seniority dropdowns above the topic grid. */
export function TopicFilters(props: {
  values: TopicFilterValues
  onChange: (values: TopicFilterValues) => void
}) {
  const { values, onChange } = props
  return (
    <div className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:max-w-xl">
      <Field label="Location">
        <Select
          value={values.location}
          options={LOCATION_OPTIONS}
          onChange={(location) => onChange({ ...values, location })}
        />
      </Field>
      <Field label="Seniority">
        <Select
          value={values.seniority}
          options={SENIORITY_OPTIONS}
          onChange={(seniority) => onChange({ ...values, seniority })}
        />
      </Field>
    </div>
  )
}
