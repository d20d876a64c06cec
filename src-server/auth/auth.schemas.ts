import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../platform/http'
import { PERMISSIONS, ROLES } from '../platform/identity'

export const Username = Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' })
export const Password = Type.String({ minLength: 8, maxLength: 256 })
export const RoleSchema = Type.Enum([...ROLES])
export const PermissionSchema = Type.Enum([...PERMISSIONS])

export const UserSchema = Type.Object({
  id: Uuid,
  username: Type.String(),
  avatar_url: Nullable(Type.String()),
  roles: Type.Array(RoleSchema),
  permissions: Type.Array(PermissionSchema),
  disabled: Type.Boolean(),
  /** The password was set by an admin: until the user changes it, only their profile and sign-out answer. */
  must_change_password: Type.Boolean(),
  created_at: Timestamp,
})
export type User = Static<typeof UserSchema>

/** What anyone signed in may learn of another person: their id and name (a transfer's recipient). */
export const UserLookup = Type.Object({ id: Uuid, username: Type.String() })

export const Credentials = Type.Object({ username: Username, password: Password })
/** `POST /api/auth/register`'s one answer: the same whether the name was free or taken. */
export const RegistrationAccepted = Type.Object({ message: Type.String() })
export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
})
/** `PATCH /api/auth/me`: what a user may change about themselves. A data URL of 256 KiB is ~350k characters. */
export const UpdateMeBody = Type.Object(
  { avatar_url: Nullable(Type.String({ minLength: 1, maxLength: 360_000 })) },
  { additionalProperties: false },
)
export type UpdateMeBody = Static<typeof UpdateMeBody>
/** `POST /api/auth/me/password`: the current password proves it is the user, not someone at their unlocked screen. */
export const ChangePasswordBody = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 256 }), new_password: Password },
  { additionalProperties: false },
)
export type ChangePasswordBody = Static<typeof ChangePasswordBody>
/** `GET /api/auth/registration`: whether the sign-in page offers to register. */
export const RegistrationStatus = Type.Object({ open: Type.Boolean() })
export const LoginResult = Type.Object({ token: Type.String(), user: UserSchema })
export type LoginResult = Static<typeof LoginResult>

export const ApiToken = Type.Object({
  id: Uuid,
  name: Type.String(),
  /** `api`: made by the user for a LAN client; `desktop`: the desktop window's sign-in, replaced at each start. */
  kind: Type.Union([Type.Literal('api'), Type.Literal('desktop')]),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  expires_at: Nullable(Timestamp),
})
export type ApiToken = Static<typeof ApiToken>
export const CreatedApiToken = Type.Intersect([ApiToken, Type.Object({ token: Type.String() })])

export const CreateUserBody = Type.Object({
  username: Username,
  password: Password,
  roles: Type.Array(RoleSchema, { minItems: 1, maxItems: 4, default: ['user'] }),
})
export const UpdateUserBody = Type.Object(
  {
    roles: Type.Optional(Type.Array(RoleSchema, { minItems: 1, maxItems: 4 })),
    disabled: Type.Optional(Type.Boolean()),
    /** A temporary password: the user must change it at their next sign-in. */
    password: Type.Optional(Password),
  },
  { minProperties: 1 },
)
