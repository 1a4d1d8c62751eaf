import { ClockIcon } from '@heroicons/react/20/solid'
import { AcademicCapIcon, InformationCircleIcon, UserGroupIcon } from '@heroicons/react/24/outline'
import { LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { CheckList, Hero, NumberedSteps, Section, type Step, TextLink } from './parts.tsx'

const MENTEE_BENEFITS = [
  'Access to experienced professionals',
  'Personalized guidance and feedback',
  'Skill development opportunities',
  'Career growth support',
] as const

const MENTOR_BENEFITS = [
  'Leadership skill development',
  'Knowledge sharing opportunities',
  'Professional networking',
  'Community impact',
] as const

const STEPS: readonly Step[] = [
  {
    title: 'A mentor proposes a topic',
    text: (
      <>
        Mentors describe what they can help with, who it suits and how they like to meet, on the{' '}
        <TextLink to={paths.createTopic}>Create Topic</TextLink> page.
      </>
    ),
  },
  {
    title: 'An administrator reviews it',
    text: 'Program administrators approve the topic, or reject it with a reason so the mentor can improve it.',
  },
  {
    title: 'Mentees apply',
    text: (
      <>
        Approved topics appear under <TextLink to={paths.topics}>Topics</TextLink>, where mentees
        apply to the ones that match their goals.
      </>
    ),
  },
  {
    title: 'The mentor accepts or rejects applications',
    text: 'Mentors choose the mentees they can help most; a rejection always comes with a reason.',
  },
  {
    title: 'The mentorship starts',
    text: 'Once the mentees are chosen, the mentor starts the topic and the pairing begins.',
  },
  {
    title: 'Regular meetings and progress tracking',
    text: 'Mentor and mentees meet regularly, agree on goals and review progress together.',
  },
  {
    title: 'The mentor concludes the topic',
    text: 'When the goals are reached, the mentor concludes the topic with a summary.',
  },
  {
    title: 'Everyone leaves feedback',
    text: 'Mentors and mentees rate the mentorship and share feedback that helps the program improve.',
  },
]

/** The programme page (spec section 1): overview, benefits, how it works, duration. */
export default function About() {
  useDocumentTitle('About the Program')
  return (
    <div>
      <Hero
        icon={InformationCircleIcon}
        eyebrow="Program Details"
        title="About the Mentorship Program"
        lead="Our mentorship program pairs colleagues who want to grow with experienced professionals who want to share what they know. Mentors publish topics in their areas of expertise, mentees apply, and together they work towards clear goals over a few months."
      />

      <Section
        title="Overview"
        intro="The program is open to everyone in the company. The same person can mentor in one area and be mentored in another."
      >
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
          <CheckList title="Benefits for Mentees" icon={AcademicCapIcon} items={MENTEE_BENEFITS} />
          <CheckList title="Benefits for Mentors" icon={UserGroupIcon} items={MENTOR_BENEFITS} />
        </div>
      </Section>

      <Section
        title="How It Works"
        intro="Every mentorship follows the same path, from idea to feedback."
      >
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <NumberedSteps steps={STEPS} />
        </div>
      </Section>

      <Section title="Duration">
        <div className="flex flex-col gap-4 rounded-xl border border-brand-100 bg-brand-50 p-6 sm:flex-row sm:items-center dark:border-brand-900/60 dark:bg-brand-950/50">
          <ClockIcon
            className="size-8 shrink-0 text-brand-600 dark:text-brand-300"
            aria-hidden="true"
          />
          <p className="text-slate-800 dark:text-slate-200">
            A typical mentorship lasts <strong>3-6 months</strong>. It can be extended by mutual
            agreement between mentor and mentee, based on the progress made.
          </p>
        </div>
      </Section>

      <div className="mt-12 flex flex-wrap gap-3">
        <LinkButton to={paths.topics}>Browse Topics</LinkButton>
        <LinkButton to={paths.menteeGuide} variant="secondary">
          Mentee Guide
        </LinkButton>
        <LinkButton to={paths.mentorGuide} variant="secondary">
          Mentor Guide
        </LinkButton>
      </div>
    </div>
  )
}
