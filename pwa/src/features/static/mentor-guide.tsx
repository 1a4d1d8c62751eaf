import {
  CalendarDaysIcon,
  ChatBubbleLeftRightIcon,
  ClipboardDocumentCheckIcon,
  FlagIcon,
  HandRaisedIcon,
  HeartIcon,
  LightBulbIcon,
  ScaleIcon,
  UserGroupIcon,
} from '@heroicons/react/24/outline'
import { LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useSignedIn } from '../../lib/session.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { FeatureCard, Hero, NumberedSteps, Section, type Step, TextLink } from './parts.tsx'

/** The mentor's handbook (spec section 1): the role, best practices and getting started. */
export default function MentorGuide() {
  useDocumentTitle('Mentor Guide')
  const { user } = useSignedIn()

  const steps: Step[] = [
    {
      title: 'Complete your profile',
      text: (
        <>
          Add your seniority, a short bio and your interests on{' '}
          <TextLink to={paths.profile(user.username)}>your profile</TextLink>, so mentees know who
          they are applying to.
        </>
      ),
    },
    {
      title: 'Propose a topic',
      text: (
        <>
          Go to <TextLink to={paths.createTopic}>Create Topic</TextLink>. Describe what you will
          cover and what a mentee should bring, pick the seniority levels it suits, how you want to
          meet (online, in person or both) and whether you can take one or two mentees.
        </>
      ),
    },
    {
      title: 'Wait for the review',
      text: 'An administrator reviews every new topic. If it is rejected you will see the reason on your dashboard; edit the topic and it can be reviewed again.',
    },
    {
      title: 'Choose your mentees',
      text: (
        <>
          Applications appear on your <TextLink to={paths.dashboard}>Dashboard</TextLink> under My
          Topics. Accept the people you can help most; when you reject someone, give a kind and
          specific reason.
        </>
      ),
    },
    {
      title: 'Start the mentorship',
      text: 'When your mentees are in place, press Start Topic on the topic page. Pending applications are closed, and you can plan your first meeting.',
    },
    {
      title: 'Conclude and give feedback',
      text: 'When the goals are reached, conclude the topic with a short summary, then leave feedback. Your mentees can rate the mentorship too.',
    },
  ]

  return (
    <div>
      <Hero
        icon={UserGroupIcon}
        eyebrow="For Mentors"
        title="Mentor Guide"
        lead="Mentoring is one of the most effective ways to grow people and to grow yourself. This guide explains what we expect from mentors, what works well in practice, and how to get your first mentorship going."
        actions={
          <>
            <LinkButton to={paths.createTopic}>Create a Topic</LinkButton>
            <LinkButton to={paths.dashboard} variant="secondary">
              Go to Dashboard
            </LinkButton>
          </>
        }
      />

      <Section
        title="Your role as a mentor"
        intro="You are a guide, not a manager: you help your mentee find their own answers."
      >
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          <FeatureCard icon={LightBulbIcon} title="Share experience">
            Offer the lessons, shortcuts and mistakes from your own career. Stories often teach more
            than instructions.
          </FeatureCard>
          <FeatureCard icon={FlagIcon} tone="emerald" title="Help set goals">
            Agree on two or three concrete goals in the first meeting and revisit them as the
            mentorship goes on.
          </FeatureCard>
          <FeatureCard icon={HeartIcon} tone="amber" title="Encourage and challenge">
            Give honest, kind feedback. Stretch your mentee a little beyond their comfort zone and
            celebrate progress.
          </FeatureCard>
        </div>
      </Section>

      <Section title="Best practices">
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
          <FeatureCard icon={CalendarDaysIcon} tone="sky" title="Meet regularly">
            A 45–60 minute session every two weeks works well for most pairs. Book the meetings in
            advance and protect the time.
          </FeatureCard>
          <FeatureCard icon={ChatBubbleLeftRightIcon} title="Listen more than you talk">
            Ask open questions such as “What have you tried?” and “What would you do next?” before
            offering your own view.
          </FeatureCard>
          <FeatureCard icon={ClipboardDocumentCheckIcon} tone="emerald" title="Track progress">
            End each meeting with agreed next steps and start the next one by reviewing them. A
            shared note is enough.
          </FeatureCard>
          <FeatureCard icon={ScaleIcon} tone="amber" title="Respect boundaries">
            Keep what is shared confidential, and be clear about what you can help with and where
            another person is better placed.
          </FeatureCard>
        </div>
      </Section>

      <Section
        title="Getting started"
        intro="From your first topic to your mentees' feedback, in six steps."
      >
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <NumberedSteps steps={steps} />
        </div>
      </Section>

      <div className="mt-12 flex flex-col items-start gap-4 rounded-xl bg-brand-600 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8 dark:bg-brand-800">
        <div className="flex items-center gap-3">
          <HandRaisedIcon className="size-8 shrink-0" aria-hidden="true" />
          <p className="font-medium">
            Ready to share what you know? Your first topic takes five minutes.
          </p>
        </div>
        <LinkButton to={paths.createTopic} variant="secondary">
          Create a Topic
        </LinkButton>
      </div>
    </div>
  )
}
