import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { IdParams, NoContent, Page, PageQuery, pageOf } from '../platform/http'
import {
  ApiToken,
  ChangePasswordBody,
  CreatedApiToken,
  CreateUserBody,
  Credentials,
  LoginBody,
  LoginResult,
  RegistrationAccepted,
  RegistrationStatus,
  UpdateMeBody,
  UpdateUserBody,
  UserLookup,
  UserSchema,
} from './auth.schemas'
import type { AuthService } from './auth.service'

/** The auth routes are the one place handed the whole auth service; other domains see `ctx.auth` (`Accounts`). */
export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  const tags = ['auth']

  app.post(
    '/api/auth/register',
    {
      config: { public: true },
      schema: { tags, body: Credentials, response: { 202: RegistrationAccepted } },
    },
    async (request, reply) =>
      reply.status(202).send(await auth.register(request.body.username, request.body.password, request.ip)),
  )

  app.get(
    '/api/auth/registration',
    { config: { public: true }, schema: { tags, response: { 200: RegistrationStatus } } },
    async () => ({ open: await auth.registrationOpen() }),
  )

  app.post(
    '/api/auth/login',
    { config: { public: true }, schema: { tags, body: LoginBody, response: { 200: LoginResult } } },
    async (request) => auth.login(request.body.username, request.body.password, request.ip),
  )

  // What a user with a temporary password may still do: read who they are, change it, sign out.
  const beforePasswordChange = { beforePasswordChange: true } as const

  app.get(
    '/api/auth/me',
    { config: beforePasswordChange, schema: { tags, response: { 200: UserSchema } } },
    async (request) => auth.me(request.requireUser().id),
  )

  app.post(
    '/api/auth/me/password',
    {
      config: beforePasswordChange,
      schema: { tags, body: ChangePasswordBody, response: { 200: UserSchema } },
    },
    async (request) => auth.changePassword(request.requireUser(), request.body, request.ip),
  )

  app.patch(
    '/api/auth/me',
    { schema: { tags, body: UpdateMeBody, response: { 200: UserSchema } } },
    async (request) => auth.updateMe(request.requireUser().id, request.body),
  )

  app.get(
    '/api/users/:id/avatar',
    {
      config: { public: true },
      schema: { tags, params: IdParams, response: { 200: Type.Unknown({ description: 'The image bytes' }) } },
    },
    async (request, reply) => {
      const image = await auth.avatarImage(request.params.id)
      // The address carries a version, so a picture under it never changes.
      return reply
        .type(image.mimeType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(image.bytes)
    },
  )

  // Extension beyond the contract: find a person by exact username (a transfer's recipient), nothing more.
  app.get(
    '/api/users/lookup',
    {
      schema: {
        tags,
        querystring: Type.Object({ username: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: UserLookup },
      },
    },
    async (request) => auth.lookupUser(request.query.username),
  )

  app.post(
    '/api/auth/logout',
    { config: beforePasswordChange, schema: { tags, response: { 204: NoContent } } },
    async (request, reply) => {
      await auth.logout(request.requireUser())
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/api/auth/tokens',
    {
      schema: {
        tags,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 201: CreatedApiToken },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await auth.createApiToken(request.requireUser().id, request.body.name)),
  )

  app.get(
    '/api/auth/tokens',
    { schema: { tags, querystring: PageQuery, response: { 200: Page(ApiToken) } } },
    async (request) => pageOf(await auth.listApiTokens(request.requireUser().id), request.query),
  )

  app.delete(
    '/api/auth/tokens/:id',
    { schema: { tags, params: IdParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await auth.deleteApiToken(request.requireUser().id, request.params.id)
      return reply.status(204).send(null)
    },
  )

  const admin = { permission: 'platform.admin' } as const
  const adminTags = ['admin']

  app.get(
    '/api/admin/users',
    {
      config: admin,
      schema: { tags: adminTags, querystring: PageQuery, response: { 200: Page(UserSchema) } },
    },
    async (request) => auth.listUsers(request.query),
  )

  app.post(
    '/api/admin/users',
    { config: admin, schema: { tags: adminTags, body: CreateUserBody, response: { 201: UserSchema } } },
    async (request, reply) =>
      reply.status(201).send(await auth.createUser(request.requireUser(), request.body)),
  )

  app.patch(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: { tags: adminTags, params: IdParams, body: UpdateUserBody, response: { 200: UserSchema } },
    },
    async (request) => auth.updateUser(request.requireUser(), request.params.id, request.body),
  )
}
