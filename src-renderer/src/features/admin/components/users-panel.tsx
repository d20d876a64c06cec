import type { User } from '@server/auth/auth.schemas'
import { type FormEvent, useState } from 'react'
import { Badge, Button, Card, FormError, TextField } from '../../../components/ui'
import { DataTable, formatTime, Pager } from '../../../components/ui/data'
import { ConfirmButton, ConfirmDialog } from '../../../components/ui/dialog'
import { label as labelOf } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useSubmit } from '../../../lib/use-submit'
import { useSession } from '../../../stores/session-store'
import type { Role } from '../api/admin-api'
import { useAdmin } from '../stores/admin-store'

const ROLES: Role[] = ['admin', 'operator', 'reviewer', 'user']
const NEW_USER_FIELDS = ['username', 'password', 'roles'] as const

function RoleChecks({
  value,
  onChange,
  label,
}: {
  value: Role[]
  onChange(roles: Role[]): void
  label: string
}) {
  return (
    <fieldset className="checks" aria-label={label}>
      {ROLES.map((role) => (
        <label key={role}>
          <input
            type="checkbox"
            checked={value.includes(role)}
            onChange={(e) => onChange(e.target.checked ? [...value, role] : value.filter((r) => r !== role))}
          />
          {labelOf('role', role)}
        </label>
      ))}
    </fieldset>
  )
}

function NewUserForm() {
  const createUser = useAdmin((state) => state.createUser)
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [roles, setRoles] = useState<Role[]>(['user'])
  const form = useSubmit('Could not create the user.', NEW_USER_FIELDS)

  async function submit(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await createUser({ username, password, roles })
      setUsername('')
      setPassword('')
      setRoles(['user'])
    })
  }

  return (
    <form className="stack" onSubmit={submit} aria-label="New user" noValidate>
      <div className="row">
        <TextField
          label="Username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
          error={form.fieldError('username')}
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          hint="At least 8 characters."
          error={form.fieldError('password')}
        />
      </div>
      <RoleChecks value={roles} onChange={setRoles} label="Roles of the new user" />
      <FormError message={form.error} />
      <div>
        <Button type="submit" variant="primary" busy={form.busy} disabled={roles.length === 0}>
          Create user
        </Button>
      </div>
    </form>
  )
}

/**
 * An admin gives a user a temporary password (they forgot theirs): the user's sessions end, and at their next
 * sign-in they must choose their own before anything else.
 */
function TemporaryPassword({ user }: { user: User }) {
  const updateUser = useAdmin((state) => state.updateUser)
  const [open, setOpen] = useState(false)
  const [password, setPassword] = useState('')
  const form = useSubmit('The password could not be set.', ['password'])

  function close() {
    setOpen(false)
    setPassword('')
    form.clear()
  }

  async function confirm() {
    if (await form.run(() => updateUser(user.id, { password }))) close()
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>Set temporary password</Button>
      <ConfirmDialog
        open={open}
        title={`Temporary password for ${user.username}`}
        confirmLabel="Set password"
        variant="primary"
        busy={form.busy}
        disabled={password.length < 8}
        error={form.error}
        onConfirm={() => void confirm()}
        onClose={close}
      >
        <p className="muted">
          {user.username} is signed out everywhere and must choose their own password at the next sign-in.
          Tell them this one in person.
        </p>
        <TextField
          label="Temporary password"
          type="text"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint="At least 8 characters."
          error={form.fieldError('password')}
        />
      </ConfirmDialog>
    </>
  )
}

function UserActions({ user }: { user: User }) {
  const updateUser = useAdmin((state) => state.updateUser)
  const me = useSession((state) => state.user)
  const [roles, setRoles] = useState<Role[]>(user.roles)
  const self = me?.id === user.id
  return (
    <div className="row">
      <RoleChecks value={roles} onChange={setRoles} label={`Roles of ${user.username}`} />
      <Button
        disabled={roles.length === 0 || roles.join() === user.roles.join()}
        onClick={() => void updateUser(user.id, { roles })}
      >
        Save roles
      </Button>
      {user.disabled ? (
        <Button onClick={() => void updateUser(user.id, { disabled: false })}>Enable</Button>
      ) : (
        <ConfirmButton
          label="Disable"
          title={`Disable ${user.username}?`}
          confirmLabel="Disable"
          disabled={self}
          onConfirm={() => updateUser(user.id, { disabled: true })}
        >
          <p>
            {user.username} is signed out everywhere at once and cannot sign in until an admin enables the
            account again. Their agents, listings and history are kept.
          </p>
        </ConfirmButton>
      )}
      <TemporaryPassword user={user} />
    </div>
  )
}

export function UsersPanel() {
  const users = useAdmin((state) => state.users)
  const loadUsers = useAdmin((state) => state.loadUsers)
  const [page, setPage] = useState(1)
  const load = useLoad(() => loadUsers(page), [page])
  return (
    <div className="stack">
      <Card title="Add a user">
        <NewUserForm />
      </Card>
      <DataTable
        load={load}
        label="Users"
        rows={users.items}
        rowKey={(user) => user.id}
        empty="No users yet besides you. Add one above, or let people register."
        columns={[
          { key: 'name', header: 'User', render: (user) => <strong>{user.username}</strong> },
          {
            key: 'status',
            header: 'Status',
            render: (user) =>
              user.disabled ? (
                <Badge tone="danger">Disabled</Badge>
              ) : user.must_change_password ? (
                <Badge tone="warning">Temporary password</Badge>
              ) : (
                <Badge tone="success">Active</Badge>
              ),
          },
          {
            key: 'created',
            header: 'Created',
            render: (user) => formatTime(user.created_at),
          },
          {
            key: 'actions',
            header: 'Roles',
            render: (user) => <UserActions key={user.roles.join()} user={user} />,
          },
        ]}
      />
      <Pager page={users.page} size={users.size} total={users.total} onPage={setPage} />
    </div>
  )
}
