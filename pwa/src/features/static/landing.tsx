import {
  AcademicCapIcon,
  ChatBubbleLeftRightIcon,
  InformationCircleIcon,
  LightBulbIcon,
  MagnifyingGlassIcon,
  RocketLaunchIcon,
  UserGroupIcon,
} from '@heroicons/react/24/outline'
import type { ReactNode } from 'react'
import { LinkButton } from '../../components/ui/button.tsx'
import { paths } from '../../lib/paths.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { FeatureCard, Hero, Section } from './parts.tsx'

const PRODUCT_NAME = 'Pairwise'

/** The home page (spec section 1): hero, the three entry cards, and how a mentorship runs. */
export default function Landing() {
  useDocumentTitle(null)
  return (
    <div>
      <Hero
        logo
        title={
          <>
            Welcome to <span className="text-brand-700 dark:text-brand-300">{PRODUCT_NAME}</span>{' '}
            Mentorship
          </>
        }
        lead="Connect, learn, and grow with experienced professionals in our mentorship program designed to accelerate your career development."
        actions={
          <>
            <LinkButton to={paths.topics} size="lg">
              <MagnifyingGlassIcon className="size-5" aria-hidden="true" />
              Browse Topics
            </LinkButton>
            <LinkButton to={paths.about} size="lg" variant="secondary">
              Learn More
            </LinkButton>
          </>
        }
      />

      <section aria-label="Get started" className="mt-10 grid gap-6 md:grid-cols-3">
        <FeatureCard
          icon={AcademicCapIcon}
          title="For Mentees"
          level={2}
          link={{ to: paths.menteeGuide, label: 'Mentee Guide' }}
        >
          Find a mentor who has walked the path you are on. Browse topics, apply to the ones that
          match your goals, and learn how to get the most out of every session.
        </FeatureCard>
        <FeatureCard
          icon={UserGroupIcon}
          tone="emerald"
          title="For Mentors"
          level={2}
          link={{ to: paths.mentorGuide, label: 'Mentor Guide' }}
        >
          Share what you know and help colleagues grow. Propose a topic in your area of expertise,
          choose your mentees, and guide them with practical advice.
        </FeatureCard>
        <FeatureCard
          icon={InformationCircleIcon}
          tone="sky"
          title="About the Program"
          level={2}
          link={{ to: paths.about, label: 'Program Details' }}
        >
          Learn how topics are reviewed, how mentees are matched, what a typical mentorship looks
          like and how long it lasts.
        </FeatureCard>
      </section>

      <Section title="How it works" intro="Three steps from idea to a running mentorship.">
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-3">
          <Highlight icon={LightBulbIcon} title="Propose or discover">
            Mentors propose topics; administrators review them before they are published.
          </Highlight>
          <Highlight icon={ChatBubbleLeftRightIcon} title="Apply and connect">
            Mentees apply to approved topics and mentors accept the people they can help most.
          </Highlight>
          <Highlight icon={RocketLaunchIcon} title="Grow together">
            Meet regularly, track progress, and close with feedback from both sides.
          </Highlight>
        </div>
      </Section>
    </div>
  )
}

function Highlight(props: { icon: typeof LightBulbIcon; title: string; children: ReactNode }) {
  const IconComponent = props.icon
  return (
    <div className="flex gap-4">
      <IconComponent
        className="size-7 shrink-0 text-brand-600 dark:text-brand-400"
        aria-hidden="true"
      />
      <div>
        <h3 className="font-semibold text-slate-900 dark:text-white">{props.title}</h3>
        <p className="mt-1 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
          {props.children}
        </p>
      </div>
    </div>
  )
}
