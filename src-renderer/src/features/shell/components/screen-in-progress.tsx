import { EmptyState, PageHeader } from '../../../components/ui'

/**
 * The honest state of a screen whose console view is not built yet: what it will be for, and where its API
 * already lives, so nobody mistakes it for a working screen.
 */
export function ScreenInProgress({ title, purpose, api }: { title: string; purpose: string; api: string }) {
  return (
    <>
      <PageHeader title={title} description={purpose} />
      <EmptyState title="This screen is not built yet">
        The console view for this area is still to come. Its server API is available now under{' '}
        <code>{api}</code>; see the <a href="/docs">API explorer</a>.
      </EmptyState>
    </>
  )
}
