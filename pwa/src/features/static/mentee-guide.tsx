import {
  AcademicCapIcon,
  ArrowPathIcon,
  BookOpenIcon,
  CalendarDaysIcon,
  ChatBubbleLeftRightIcon,
  FlagIcon,
  PencilSquareIcon,
  SparklesIcon,
} from '@heroicons/react/24/outline'
import { LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useSignedIn } from '../../lib/session.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { FeatureCard, Hero, NumberedSteps, Section, type Step, TextLink } from './parts.tsx'

/** The mentee's handbook (spec section 1): the role, best practices and getting started. */
export default function MenteeGuide() {
  useDocumentTitle('Mentee Guide')
  const { user } = useSignedIn()

  const steps: Step[] = [
    {
      title: 'Complete your profile',
      text: (
        <>
          Set your seniority, write a short bio and list your interests on{' '}
          <TextLink to={paths.profile(user.username)}>your profile</TextLink>. Mentors read it when
          they decide on applications.
        </>
      ),
    },
    {
      title: 'Browse the topics',
      text: (
        <>
          Open <TextLink to={paths.topics}>Topics</TextLink> and look for subjects that match your
          goals. Check the seniority levels each topic suits, how the mentor likes to meet, and
          whether places are still free.
        </>
      ),
    },
    {
      title: 'Apply',
      text: 'Press Apply on a topic that fits. Apply to the topics you are genuinely committed to rather than to many at once.',
    },
    {
      title: 'Follow your applications',
      text: (
        <>
          Your <TextLink to={paths.dashboard}>Dashboard</TextLink> lists your applications under My
          Enrollments: pending, active once accepted, or rejected with the mentor's reason. The bell
          in the top bar tells you when something changes.
        </>
      ),
    },
    {
      title: 'Prepare for your first meeting',
      text: 'Write down what you want to achieve, where you are today and what support would help most. Share it with your mentor before you meet.',
    },
    {
      title: 'Close with feedback',
      text: 'When your mentor concludes the topic, leave a rating and a few honest sentences. It helps your mentor and future mentees.',
    },
  ]

  return (
    <div>
      <Hero
        icon={AcademicCapIcon}
        eyebrow="For Mentees"
        title="Mentee Guide"
        lead="A mentor can help you learn faster, avoid common mistakes and see your career from a new angle. This guide explains what is expected of you as a mentee, how to make the most of the time, and how to find your first mentor."
        actions={
          <>
            <LinkButton to={paths.topics}>Browse Topics</LinkButton>
            <LinkButton to={paths.dashboard} variant="secondary">
              Go to Dashboard
            </LinkButton>
          </>
        }
      />

      <Section
        title="Your role as a mentee"
        intro="You own your growth; your mentor helps you get there."
      >
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          <FeatureCard icon={FlagIcon} title="Drive the agenda">
            Come with goals and questions. Your mentor responds best to clear requests such as “help
            me prepare for my first design review”.
          </FeatureCard>
          <FeatureCard icon={SparklesIcon} tone="emerald" title="Be open">
            Share what is hard as well as what goes well, and be ready to try approaches that feel
            unfamiliar.
          </FeatureCard>
          <FeatureCard icon={ArrowPathIcon} tone="amber" title="Follow through">
            Do what you agreed between meetings and report back. Progress between sessions is where
            most learning happens.
          </FeatureCard>
        </div>
      </Section>

      <Section title="Best practices">
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
          <FeatureCard icon={CalendarDaysIcon} tone="sky" title="Respect the time">
            Be on time, keep meetings focused, and let your mentor know early if you need to
            reschedule.
          </FeatureCard>
          <FeatureCard icon={PencilSquareIcon} title="Take notes">
            Write down advice, decisions and next steps. Review them before each meeting so you can
            show how you have moved on.
          </FeatureCard>
          <FeatureCard icon={ChatBubbleLeftRightIcon} tone="emerald" title="Ask for feedback">
            Ask your mentor directly what you could do better. Specific feedback is the most
            valuable thing they can give you.
          </FeatureCard>
          <FeatureCard icon={BookOpenIcon} tone="amber" title="Keep learning">
            Follow up on the books, talks and people your mentor recommends, and share what you took
            from them.
          </FeatureCard>
        </div>
      </Section>

      <Section
        title="Getting started"
        intro="From your profile to your first mentorship, in six steps."
      >
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <NumberedSteps steps={steps} />
        </div>
      </Section>

      <div className="mt-12 flex flex-col items-start gap-4 rounded-xl bg-brand-600 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8 dark:bg-brand-800">
        <p className="font-medium">Find a topic that moves you forward.</p>
        <LinkButton to={paths.topics} variant="secondary">
          Browse Topics
        </LinkButton>
      </div>
    </div>
  )
}
