/** What the insights figures mean, for the OpenAPI description (docs/insights.md says the same). */

export const SUPPRESSION =
  'No figure about fewer than 5 people is shown: such a count is null ("fewer than 5" on screen), and when a breakdown would hide exactly one cell the next-smallest is hidden too, so it cannot be worked out from the total. Periods are whole calendar months (UTC); a period figure shows only when it shows in every month of the period.'

export const FORMULAS = [
  'funnel.topics: topics first proposed in the period, by status now; stages are cumulative (approved = approved + started + concluded).',
  'funnel.applications: applications made in the period, by status now; acceptanceRate = accepted ÷ applications.',
  'matchRate = people with an application of the period accepted ÷ people who applied in the period (0.7 and above is healthy).',
  'timeToMatch: a person’s first application of the period → first acceptance, in days.',
  'timing.review: submitted → approved or rejected, for topics submitted in the period; timing.answer: made → accepted or rejected by the mentor (closures when a topic starts excluded); median and 90th percentile (percentile_cont), in days.',
  'capacity (now): openPlaces = Σ(maxMentees − currentMentees) over approved topics; filledPlaces = Σ currentMentees over approved and started topics; openTopics = approved topics with room or full; menteesWaiting = people with a pending application and no accepted one on an approved or started topic.',
  'demand (now): byInterest.people = people listing the interest, openTopics = approved topics with room offering it; bySeniority.people = people at the level, openPlaces = free places on approved topics open to it.',
  'outcomes: star ratings on topics concluded in the period, mentor and mentee side; feedbackShare = concluded topics with any feedback ÷ concluded topics.',
  'trends: the same figures per month, for the 12 months up to the end of the period (or the whole period when longer).',
]
