import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { AcademicCapIcon, PresentationChartBarIcon } from '@heroicons/react/20/solid'
import type { ComponentType, SVGProps } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Recommended } from '../../components/matching/recommended.tsx'
import { cn } from '../../components/ui/cn.ts'
import { PageHeader } from '../../components/ui/page.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AnswerDialog } from './answer-dialog.tsx'
import { MyEnrollments } from './my-enrollments.tsx'
import { MyTopics } from './my-topics.tsx'

const TABS = [
  { key: 'topics', label: 'My Topics', icon: PresentationChartBarIcon },
  { key: 'enrollments', label: 'My Enrollments', icon: AcademicCapIcon },
] as const

/**
 * The dashboard (spec section 2): the topics the user mentors with their
 * applications, and the user's own applications. The open tab is kept in the
 * address (?tab=enrollments), so a reload or a shared link opens it again.
 * ?application=<id> (a reminder's link) opens that application to answer.
 */
export default function Dashboard() {
  useDocumentTitle('Dashboard')
  const [params, setParams] = useSearchParams()
  const selected = Math.max(
    0,
    TABS.findIndex((t) => t.key === params.get('tab')),
  )
  const select = (index: number) => {
    const next = new URLSearchParams(params)
    if (index === 0) next.delete('tab')
    else next.set('tab', TABS[index]?.key ?? 'topics')
    setParams(next, { replace: true })
  }

  return (
    <>
      <PageHeader
        title="Dashboard"
        description="The topics you mentor and the topics you have applied to, in one place."
      />
      <Recommended limit={3} />
      <TabGroup selectedIndex={selected} onChange={select}>
        <TabList className="flex gap-1 rounded-xl bg-slate-100 p-1 sm:inline-flex dark:bg-slate-800/70">
          {TABS.map((tab) => (
            <TabButton key={tab.key} label={tab.label} icon={tab.icon} />
          ))}
        </TabList>
        <TabPanels className="mt-6">
          <TabPanel className="rounded-xl focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
            <MyTopics />
          </TabPanel>
          <TabPanel className="rounded-xl focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
            <MyEnrollments />
          </TabPanel>
        </TabPanels>
      </TabGroup>
      <AnswerDialog />
    </>
  )
}

function TabButton(props: { label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }) {
  const Icon = props.icon
  return (
    <Tab
      className={cn(
        'flex flex-1 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium whitespace-nowrap transition-colors sm:flex-none',
        'text-slate-700 hover:bg-white/60 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-900/40 dark:hover:text-white',
        'focus:outline-none data-focus:ring-2 data-focus:ring-brand-600',
        'data-selected:bg-white data-selected:text-brand-700 data-selected:shadow-sm dark:data-selected:bg-slate-900 dark:data-selected:text-brand-300',
      )}
    >
      <Icon className="size-4" aria-hidden="true" />
      {props.label}
    </Tab>
  )
}
