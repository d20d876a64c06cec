import { type Static, type TSchema, Type } from 'typebox'

/** Shared schema atoms: every route builds on these so validation, OpenAPI and client types agree. */
export const Uuid = Type.String({ format: 'uuid' })
export const Timestamp = Type.String({ format: 'date-time' })
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

export const IdParams = Type.Object({ id: Uuid })
export type IdParams = Static<typeof IdParams>

export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
})
export type PageQuery = Static<typeof PageQuery>

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer(), page: Type.Integer(), size: Type.Integer() })

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'The error envelope every failing request returns.' },
)
export type ErrorEnvelope = Static<typeof ErrorEnvelope>

export const UserRef = Type.Object({ id: Uuid, username: Type.String() })
export type UserRef = Static<typeof UserRef>

export const NoContent = Type.Null({ description: 'No content' })
