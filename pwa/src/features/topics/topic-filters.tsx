import { memo, type ReactNode, useCallback, useRef } from 'react'
import {
  LOCATIONS,
  type Location,
  SENIORITY_LABELS,
  SENIORITY_LEVELS,
  type Seniority,
} from '../../../../shared/constants.ts'
import type { TopicListQuery } from '../../../../shared/topic.ts'
import { Field } from '../../components/ui/field.tsx'
import { SearchBox } from '../../components/ui/search-box.tsx'
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

export type TopicFilterValues = {
  location: LocationFilter
  seniority: SeniorityFilter
  /** The search words, as typed. */
  q: string
}

/** The filters a URL names (`?location=online&seniority=senior&q=…`); anything unknown is "all". */
export function filtersFromParams(params: URLSearchParams): Omit<TopicFilterValues, 'q'> {
  const location = params.get('location')
  const seniority = params.get('seniority')
  return {
    location: (LOCATIONS as readonly string[]).includes(location ?? '')
      ? (location as Location)
      : 'all',
    seniority: (SENIORITY_LEVELS as readonly string[]).includes(seniority ?? '')
      ? (seniority as Seniority)
      : 'all',
  }
}

/** The filter values as the shared matcher's query (all → no condition). */
export function toQuery(values: Omit<TopicFilterValues, 'q'>): TopicListQuery {
  return {
    ...(values.location === 'all' ? {} : { location: values.location }),
    ...(values.seniority === 'all' ? {} : { seniority: values.seniority }),
  }
}

/** The search field and the location and seniority dropdowns above the topic grid. */
export function TopicFilters(props: {
  values: TopicFilterValues
  onChange: (values: TopicFilterValues, typing?: boolean) => void
  /** The search field took focus (the search index is built then). */
  onSearchFocus?: () => void
}) {
  const { values, onChange } = props
  // The dropdowns' handlers read the values of the latest render, so they stay the same
  // functions while words are typed, and the dropdowns are not drawn again for each key.
  const latest = useRef(values)
  latest.current = values
  const onLocation = useCallback(
    (location: LocationFilter) => onChange({ ...latest.current, location }),
    [onChange],
  )
  const onSeniority = useCallback(
    (seniority: SeniorityFilter) => onChange({ ...latest.current, seniority }),
    [onChange],
  )
  return (
    <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
      <SearchBox
        label="Search topics"
        placeholder="Subject, description, interest or mentor"
        value={values.q}
        maxLength={200}
        onChange={(q) => onChange({ ...values, q }, true)}
        onFocus={props.onSearchFocus}
        className="col-span-2 lg:col-span-1"
      />
      <FilterDropdown
        label="Location"
        value={values.location}
        options={LOCATION_OPTIONS}
        onChange={onLocation}
      />
      <FilterDropdown
        label="Seniority"
        value={values.seniority}
        options={SENIORITY_OPTIONS}
        onChange={onSeniority}
      />
    </div>
  )
}

type FilterDropdownProps<T extends string> = {
  label: string
  value: T
  options: SelectOption<T>[]
  onChange: (value: T) => void
}

// memo() loses the type parameter: the cast gives it back.
const FilterDropdown = memo(function FilterDropdown<T extends string>(
  props: FilterDropdownProps<T>,
) {
  return (
    <Field label={props.label}>
      <Select value={props.value} options={props.options} onChange={props.onChange} />
    </Field>
  )
}) as <T extends string>(props: FilterDropdownProps<T>) => ReactNode
