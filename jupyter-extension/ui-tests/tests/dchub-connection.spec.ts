import { expect, test } from '@jupyterlab/galata';

import { API_KEY, JUPYTER, KEYED, QUEUE_PATH, SANDBOX } from './env';
import { type QueueBody, panelSettings, view } from './panel';

/** How the panel reaches the service: through the Jupyter server's relay, or directly with a key it asks for. */
test.use({ mockSettings: panelSettings() });

test.describe('DC Hub relay (server extension)', () => {
  test('the panel goes through the Jupyter server, which holds the key', async ({ page, request }) => {
    const config = await request.get(`${JUPYTER}/dchub/config`);
    expect(config.ok()).toBe(true);
    const body = (await config.json()) as Record<string, unknown>;
    expect(body).toEqual({ proxy: true, has_key: true, base_url: SANDBOX, engine: true });
    expect(JSON.stringify(body)).not.toContain(API_KEY);

    // Only the API is relayed.
    expect((await request.get(`${JUPYTER}/dchub/proxy/_sandbox/clock`)).status()).toBe(404);
    expect((await request.get(`${JUPYTER}/dchub/proxy/api/%2e%2e/_sandbox/clock`)).status()).toBe(404);

    await page.sidebar.openTab('dchub-panel');
    const status = page.locator('#dchub-panel .jp-DCHub-connection');
    await expect(status).toHaveAttribute('data-mode', 'proxy');
    await expect(status).toHaveAttribute('data-has-key', 'true');
    await expect(page.locator('#dchub-panel input[name="api_key"]')).toBeHidden();
  });
});

test.describe('DC Hub without the relay (JupyterLite path)', () => {
  test.use({ mockSettings: panelSettings({ connection: 'direct' }) });

  test('asks for the key in a masked field and keeps it in browser storage only', async ({ page, request }) => {
    await page.sidebar.openTab('dchub-panel');
    const panel = page.locator('#dchub-panel');
    const status = panel.locator('.jp-DCHub-connection');
    await expect(status).toHaveAttribute('data-mode', 'direct');
    await expect(status).toHaveAttribute('data-has-key', 'false');

    const key = panel.locator('input[name="api_key"]');
    await expect(key).toHaveAttribute('type', 'password');
    await key.fill(API_KEY);
    await panel.getByRole('button', { name: 'Save key' }).click();
    await expect(status).toHaveAttribute('data-has-key', 'true');
    await expect(key).toHaveValue('');
    expect(await page.evaluate(() => window.localStorage.getItem('dchub:apiKey'))).toBe(API_KEY);

    await panel.locator('select[name="iso"]').selectOption('MISO');
    await panel.getByRole('button', { name: 'Search' }).click();
    const body = (await (
      await request.get(`${SANDBOX}${QUEUE_PATH}`, { headers: KEYED, params: { iso: 'MISO' } })
    ).json()) as QueueBody;
    expect(body.count_returned).toBeGreaterThan(3);
    await expect(view(page, 'queue').locator('.jp-DCHub-count')).toHaveAttribute(
      'data-count-returned',
      String(body.count_returned)
    );

    // The settings hold no key.
    const settings = await request.get(`${JUPYTER}/lab/api/settings/@dchub/jupyterlab:plugin`);
    if (settings.ok()) expect(await settings.text()).not.toContain(API_KEY);

    await panel.getByRole('button', { name: 'Forget key' }).click();
    await expect(status).toHaveAttribute('data-has-key', 'false');
    expect(await page.evaluate(() => window.localStorage.getItem('dchub:apiKey'))).toBeNull();
  });
});
