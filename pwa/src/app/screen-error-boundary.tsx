import { Component, type ReactNode } from 'react'
import { RouteError } from './route-error.tsx'

type Props = {
  /** The address shown: a failed screen is tried again at the next one. */
  resetKey: string
  children: ReactNode
}

type State = { error: unknown; resetKey: string }

/**
 * Catches what a screen throws while it renders (or its code failing to
 * load) and shows RouteError in the whole frame's place, never a blank page.
 * Going to another address tries again.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('A screen failed without an error.') }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey }
  }

  override render(): ReactNode {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children
  }
}
