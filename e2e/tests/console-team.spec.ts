import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

const OWNER = { email: 'olu@shop.example', name: 'Olu Adeyemi', password: 'a quiet harbour at dawn' };
const AGENT = { email: 'ana@shop.example', name: 'Ana Lima', password: 'lanterns over the river' };

test.describe.serial('team accounts', () => {
  test('first run: the key printed at start signs in, then the owner account is made, and the owner signs in with e-mail and password', async ({ page }) => {
    const owner = new ConsoleHarness(page);
    await owner.signIn();
    const notice = page.getByText('Your organisation has no accounts yet.');
    await expect(notice).toBeVisible();
    await page.getByRole('link', { name: 'Create the owner account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create the owner account' })).toBeFocused();
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-team-first-run');

    await page.getByLabel('E-mail address').fill(OWNER.email);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await expect(page.getByRole('alert')).toHaveText('password is a commonly used password; choose another');
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
    await expect(page.getByText(`${OWNER.name} · OWNER`)).toBeVisible();
    await expect(notice).toBeHidden();
    await expect(owner.nav('Settings')).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    // Members exist now: the e-mail form comes first, the key form one click away.
    await expect(page.getByRole('textbox', { name: 'E-mail address' })).toBeVisible();
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('The e-mail address or password is wrong.');
    await owner.expectNoAxeViolations();
    await page.setViewportSize(PHONE);
    await owner.screenshot('console-team-sign-in-phone');
    await page.setViewportSize({ width: 1280, height: 720 });
    await owner.signInAs(OWNER.email, OWNER.password);
    await expect(page.getByText(`${OWNER.name} · OWNER`)).toBeVisible();
  });

  test('invite in one browser, accept in another; an AGENT\'s console has no owner controls; removing it signs it out', async ({ page, browser }) => {
    const owner = new ConsoleHarness(page);
    await owner.signInAs(OWNER.email, OWNER.password);
    await owner.nav('Settings').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await expect(page.getByRole('cell', { name: OWNER.email })).toBeVisible();
    await page.getByLabel('E-mail address').fill(AGENT.email);
    await page.getByLabel('Role').selectOption('AGENT');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = page.getByRole('textbox', { name: 'Invitation link' });
    await expect(link).toHaveValue(/\/console\/invitation#[\w-]{43}$/);
    const url = await link.inputValue();
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-team-members');
    await page.setViewportSize(PHONE);
    await owner.screenshot('console-team-members-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    // The invitee, in a browser of their own.
    const context = await browser.newContext({ bypassCSP: true });
    const invitee = await context.newPage();
    const agent = new ConsoleHarness(invitee);
    await invitee.goto(url);
    await expect(invitee.getByRole('heading', { level: 1, name: 'Join your team on Parley' })).toBeVisible();
    await agent.expectNoAxeViolations();
    await agent.screenshot('console-team-invitation');
    await invitee.getByLabel('Your name').fill(AGENT.name);
    await invitee.getByLabel('Password').fill(AGENT.password);
    await invitee.getByRole('button', { name: 'Create account' }).click();
    await expect(invitee.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
    await expect(invitee.getByText(`${AGENT.name} · AGENT`)).toBeVisible();

    // The AGENT reads chatbots, knowledge and conversations, without the controls its role may not use.
    await expect(agent.nav('Settings')).toHaveCount(0);
    await expect(invitee.getByRole('button', { name: 'New chatbot' })).toHaveCount(0);
    await expect(invitee.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await agent.expectNoAxeViolations();
    await agent.screenshot('console-team-agent');
    await agent.open('Knowledge');
    await expect(invitee.getByRole('button', { name: 'Add text' })).toHaveCount(0);
    await expect(invitee.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await agent.open('Conversations');
    await invitee.setViewportSize(PHONE);
    await agent.screenshot('console-team-agent-phone');
    await agent.expectNoAxeViolations();
    // The API refuses the role too, whatever the page shows.
    expect((await invitee.request.get('/v1/member/all')).status()).toBe(403);

    // The owner removes the agent: the agent's next call finds its session ended.
    await owner.nav('Settings').click();
    await page.getByRole('button', { name: `Remove ${AGENT.name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Removed ${AGENT.name}.` })).toBeVisible();
    await agent.nav('Leads').click();
    await expect(invitee.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
    // The invitation worked once.
    await invitee.goto(url);
    await invitee.getByLabel('Your name').fill('Someone else');
    await invitee.getByLabel('Password').fill('another long passphrase');
    await invitee.getByRole('button', { name: 'Create account' }).click();
    await expect(invitee.getByRole('alert')).toHaveText('This invitation was used already or has expired. Ask for a new one.');
    await context.close();
  });

  test('the owner makes a named API key, sees it once, revokes it, and reads who changed what', async ({ page, request }) => {
    const owner = new ConsoleHarness(page);
    await owner.signInAs(OWNER.email, OWNER.password);
    await owner.nav('Settings').click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await page.getByLabel('Name').fill('Zapier');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('textbox', { name: 'API key' });
    await expect(shown).toHaveValue(/^pk_[\w-]{43}$/);
    const key = await shown.inputValue();
    expect((await request.get('/v1/chatbot/all', { headers: { 'x-api-key': key } })).status()).toBe(200);
    await expect(page.getByRole('cell', { name: 'Zapier', exact: true })).toBeVisible();
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-team-api-keys');

    await page.getByRole('button', { name: 'Revoke Zapier' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Revoked "Zapier".' })).toBeVisible();
    await expect(shown).toHaveCount(0);
    expect((await request.get('/v1/chatbot/all', { headers: { 'x-api-key': key } })).status()).toBe(401);

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Your name').fill('Olu A.');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your name is saved.' })).toBeVisible();
    await expect(page.getByText('Olu A. · OWNER')).toBeVisible();
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    const rows = page.getByRole('row');
    await expect(rows.filter({ hasText: 'revoke api key' }).filter({ hasText: OWNER.name })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'update my profile' }).filter({ hasText: 'Olu A.' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'delete member' }).filter({ hasText: AGENT.name })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'create owner' })).toHaveCount(1);
    await owner.expectNoAxeViolations();
    await page.setViewportSize(PHONE);
    await owner.screenshot('console-team-activity-phone');
  });
});
