import { ADMIN_PASSWORD, expect, screenshot, test } from './fixtures'

test('an admin signs in through the console and sees the navigation', async ({ page, server }, testInfo) => {
  await page.goto(`${server.url}/console/review`)
  await expect(page).toHaveURL(/\/console\/sign-in$/)
  await screenshot(page, testInfo, 'sign-in')

  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('Wrong username or password')

  await page.getByLabel('Password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/console\/review$/)
  const nav = page.getByRole('navigation', { name: 'Screens' })
  for (const screen of [
    'Review',
    'Chat',
    'Knowledge',
    'Agents & tools',
    'Evaluation',
    'Marketplace',
    'Wallet',
    'Admin',
  ])
    await expect(nav.getByRole('link', { name: screen })).toBeVisible()
  await expect(nav).toContainText('admin')
  await screenshot(page, testInfo, 'signed-in')

  // The session survives a reload (token remembered by this browser) and sign-out ends it.
  await page.reload()
  await expect(nav.getByRole('link', { name: 'Review' })).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/console\/sign-in$/)
})
