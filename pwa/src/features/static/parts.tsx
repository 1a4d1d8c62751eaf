import { ArrowRightIcon, CheckCircleIcon } from '@heroicons/react/20/solid'
import type { ComponentType, ReactNode, SVGProps } from 'react'
import { Link } from 'react-router-dom'
import { LogoMark } from '../../components/logo.tsx'
import { cn } from '../../components/ui/cn.ts'

export type Icon = ComponentType<SVGProps<SVGSVGElement>>

/** The top of a content page: a soft brand panel with the page's h1, a lead text and actions. */
export function Hero(props: {
  eyebrow?: string
  title: ReactNode
  lead: ReactNode
  icon?: Icon
  logo?: boolean
  actions?: ReactNode
}) {
  const IconComponent = props.icon
  return (
    // A solid background, not a gradient: the text's contrast is then one that tools can verify.
    <section className="relative overflow-hidden rounded-2xl border border-brand-100 bg-brand-50 px-6 py-10 sm:px-10 sm:py-14 dark:border-brand-900/60 dark:bg-slate-900">
      <div className="relative flex flex-col gap-6 md:flex-row md:items-center md:gap-10">
        {props.logo && <LogoMark className="size-16 shadow-lg shadow-brand-600/20 sm:size-20" />}
        {IconComponent && (
          <span className="inline-flex size-14 shrink-0 items-center justify-center rounded-2xl bg-brand-600 text-white shadow-lg shadow-brand-600/20 dark:bg-brand-500">
            <IconComponent className="size-8" aria-hidden="true" />
          </span>
        )}
        <div className="min-w-0 max-w-3xl">
          {props.eyebrow && (
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
              {props.eyebrow}
            </p>
          )}
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:text-5xl dark:text-white">
            {props.title}
          </h1>
          <p className="mt-4 text-base leading-relaxed text-slate-700 sm:text-lg dark:text-slate-300">
            {props.lead}
          </p>
          {props.actions && <div className="mt-6 flex flex-wrap gap-3">{props.actions}</div>}
        </div>
      </div>
    </section>
  )
}

/** A titled block of a content page (an h2 and its content). */
export function Section(props: {
  title: string
  intro?: ReactNode
  children: ReactNode
  className?: string
}) {
  return (
    <section className={cn('mt-12', props.className)}>
      <h2 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl dark:text-white">
        {props.title}
      </h2>
      {props.intro && (
        <p className="mt-2 max-w-3xl text-slate-600 dark:text-slate-400">{props.intro}</p>
      )}
      <div className="mt-6">{props.children}</div>
    </section>
  )
}

/** A card with an icon, a heading, a text and optionally a link at its foot. */
export function FeatureCard(props: {
  icon: Icon
  title: string
  /** 2 for cards right under the page's title, 3 (the default) for cards in a titled section. */
  level?: 2 | 3
  children: ReactNode
  link?: { to: string; label: string }
  tone?: 'brand' | 'emerald' | 'sky' | 'amber'
}) {
  const IconComponent = props.icon
  const Heading = props.level === 2 ? 'h2' : 'h3'
  return (
    <div className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <span
        className={cn(
          'inline-flex size-11 items-center justify-center rounded-lg',
          TONES[props.tone ?? 'brand'],
        )}
      >
        <IconComponent className="size-6" aria-hidden="true" />
      </span>
      <Heading className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
        {props.title}
      </Heading>
      <div className="mt-2 flex-1 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
        {props.children}
      </div>
      {props.link && (
        <Link
          to={props.link.to}
          className="mt-5 inline-flex items-center gap-1.5 self-start rounded text-sm font-semibold text-brand-700 hover:text-brand-900 dark:text-brand-300 dark:hover:text-brand-100"
        >
          {props.link.label}
          <ArrowRightIcon className="size-4" aria-hidden="true" />
        </Link>
      )}
    </div>
  )
}

const TONES = {
  brand: 'bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300',
  emerald: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  sky: 'bg-sky-50 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
  amber: 'bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
}

export type Step = { title: string; text: ReactNode }

/** Numbered steps, one per row, joined by a line. */
export function NumberedSteps(props: { steps: readonly Step[] }) {
  return (
    <ol className="space-y-0">
      {props.steps.map((step, index) => (
        <li key={step.title} className="relative flex gap-4 pb-8 last:pb-0">
          {index < props.steps.length - 1 && (
            <span
              className="absolute top-10 bottom-0 left-5 w-px bg-slate-200 dark:bg-slate-800"
              aria-hidden="true"
            />
          )}
          <span className="relative z-10 inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white shadow-sm dark:bg-brand-500">
            {index + 1}
          </span>
          <div className="min-w-0 pt-1.5">
            <h3 className="font-semibold text-slate-900 dark:text-white">{step.title}</h3>
            <div className="mt-1 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
              {step.text}
            </div>
          </div>
        </li>
      ))}
    </ol>
  )
}

/** A bulleted list with check marks, in a card. */
export function CheckList(props: { title: string; icon: Icon; items: readonly string[] }) {
  const IconComponent = props.icon
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h3 className="flex items-center gap-2 text-lg font-semibold text-slate-900 dark:text-white">
        <IconComponent className="size-6 text-brand-600 dark:text-brand-400" aria-hidden="true" />
        {props.title}
      </h3>
      <ul className="mt-4 space-y-3">
        {props.items.map((item) => (
          <li key={item} className="flex gap-3 text-slate-700 dark:text-slate-300">
            <CheckCircleIcon
              className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400"
              aria-hidden="true"
            />
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** An inline link into the app, styled for body text. */
export function TextLink(props: { to: string; children: ReactNode }) {
  return (
    <Link
      to={props.to}
      className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-900 dark:text-brand-300 dark:decoration-brand-700 dark:hover:text-brand-100"
    >
      {props.children}
    </Link>
  )
}
