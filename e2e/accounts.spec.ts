import { ADMIN_PASSWORD, apiToken, createUser, expect, screenshot, signIn, test } from './fixtures'

test('the sign-in page says nothing of where passwords are kept, and offers Register while registration is open', async ({
  page,
  server,
}, testInfo) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`${server.url}/console/sign-in`)
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible()
    await expect(page.locator('body')).not.toContainText('initial-admin-password')
    await expect(page.locator('body')).not.toContainText('admin password')
    await screenshot(page, testInfo, `sign-in-${scheme}`)
  }

  await page.getByRole('link', { name: 'Register' }).click()
  await page.getByLabel('Username').fill('newcomer')
  await page.getByLabel('Password').fill('newcomer-password')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByRole('status')).toContainText('sign in with it')
  await page.getByRole('link', { name: 'Sign in' }).click()
  await signIn(page, server, 'newcomer', 'newcomer-password')

  // Closed by the admin: the link is gone.
  const admin = await apiToken(server, 'admin', ADMIN_PASSWORD)
  const closed = await fetch(`${server.url}/api/admin/config/registration_open`, {
    method: 'PUT',
    headers: admin,
    body: JSON.stringify({ value: false }),
  })
  expect(closed.status).toBe(200)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Register' })).toHaveCount(0)
})

test('a user changes their own password in the profile; their other session is signed out', async ({
  page,
  server,
}, testInfo) => {
  const ann = await createUser(server, 'ann', ['user'])
  const otherSession = await apiToken(server, ann.username, ann.password)
  await signIn(page, server, ann.username, ann.password)
  await page.getByRole('button', { name: /profile/i }).click()
  const dialog = page.getByRole('dialog', { name: 'Your profile' })
  // Close is the dialog's own, at its foot on the right, not a second button of the password form.
  const change = await dialog.getByRole('button', { name: 'Change password' }).boundingBox()
  const close = await dialog.getByRole('button', { name: 'Close' }).boundingBox()
  const frame = await dialog.boundingBox()
  if (!change || !close || !frame) throw new Error('the profile dialog is not shown')
  expect(close.x).toBeGreaterThan(change.x + change.width)
  expect(frame.x + frame.width - (close.x + close.width)).toBeLessThan(32)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await screenshot(page, testInfo, `profile-${scheme}`)
  }

  await dialog.getByLabel('Current password').fill('not-my-password')
  await dialog.getByLabel('New password', { exact: true }).fill('anns-new-password')
  await dialog.getByLabel('Repeat the new password').fill('anns-new-password')
  await dialog.getByRole('button', { name: 'Change password' }).click()
  await expect(dialog.getByRole('alert')).toContainText('current password is not right')
  // A wrong password is no reason to sign out.
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()

  await dialog.getByLabel('Current password').fill(ann.password)
  await dialog.getByLabel('New password', { exact: true }).fill('anns-new-password')
  await dialog.getByLabel('Repeat the new password').fill('anns-new-password')
  await dialog.getByRole('button', { name: 'Change password' }).click()
  await expect(dialog.getByRole('status')).toContainText('Your password was changed')

  expect((await fetch(`${server.url}/api/auth/me`, { headers: otherSession })).status).toBe(401)
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await signIn(page, server, ann.username, 'anns-new-password')
})

test("an admin's temporary password must be changed before anything else", async ({ page, server }) => {
  await createUser(server, 'bob', ['user'])
  await signIn(page, server)
  await page.goto(`${server.url}/console/admin`)
  await page.getByRole('tab', { name: 'Users & roles' }).click()
  const row = page.getByRole('row').filter({ hasText: 'bob' })
  await row.getByRole('button', { name: 'Set temporary password' }).click()
  const dialog = page.getByRole('dialog', { name: 'Temporary password for bob' })
  await dialog.getByLabel('Temporary password').fill('bobs-temporary')
  await dialog.getByRole('button', { name: 'Set password' }).click()
  await expect(row.locator('.badge')).toHaveText('Temporary password')
  await page.getByRole('button', { name: 'Sign out' }).click()

  await page.getByLabel('Username').fill('bob')
  await page.getByLabel('Password').fill('bobs-temporary')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Choose your own password' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toHaveCount(0)
  await page.getByLabel('Current password').fill('bobs-temporary')
  await page.getByLabel('New password', { exact: true }).fill('bobs-own-password')
  await page.getByLabel('Repeat the new password').fill('bobs-own-password')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
})

test('a failing or unreachable server while the console loads keeps the user signed in', async ({
  page,
  server,
}, testInfo) => {
  await signIn(page, server)
  const nav = page.getByRole('navigation', { name: 'Screens' })

  await page.route('**/api/auth/me', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Something failed.', details: {} } }),
    }),
  )
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Cannot reach the server' })).toBeVisible()
  await screenshot(page, testInfo, 'server-unreachable')
  expect(await page.evaluate<string | null>('localStorage.getItem("switchboard.token")')).not.toBeNull()
  await page.unroute('**/api/auth/me')
  await page.getByRole('button', { name: 'Retry' }).click()
  await expect(nav).toBeVisible()

  // A dropped connection: the console tries again by itself once the server answers.
  await page.route('**/api/auth/me', (route) => route.abort('connectionreset'))
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Cannot reach the server' })).toBeVisible()
  await expect(page).not.toHaveURL(/sign-in/)
  await page.unroute('**/api/auth/me')
  await expect(nav).toBeVisible({ timeout: 15_000 })
  await expect(nav).toContainText('admin')
})
