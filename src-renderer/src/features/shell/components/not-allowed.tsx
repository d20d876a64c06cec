import { Link } from 'react-router'
import { EmptyState, PageHeader } from '../../../components/ui'

/** What a screen says to someone whose roles do not include it: plainly, instead of loading forever. */
export function NotAllowed({ screen }: { screen: string }) {
  return (
    <>
      <PageHeader title={screen} />
      <EmptyState
        title={`You may not open ${screen}`}
        action={<Link to="/console">Go to your first screen</Link>}
      >
        Your account’s roles do not include this screen. Ask an administrator for the role if you need it.
      </EmptyState>
    </>
  )
}
