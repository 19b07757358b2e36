import { ConnectorRegistry } from '../../connectors/connector-registry';
import { SecretScrubber } from '../../application';
import { ConnectorSecretStore } from '../../store/repositories/connector-secret.store';
import { RegistrationAnswer, WebhookRegistrationService, WebhookSetupError } from '../../webhooks/webhook-registration.service';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { printJson } from '../output/json-output';

export type WebhooksAction = 'register' | 'list' | 'unregister';

/**
 * `webhooks register|list|unregister <connection> [--url https://your-host]`: the connection's webhook with its
 * CRM's API where the CRM allows it (registering again leaves one registration), else the steps to follow.
 * Exit 1 when the CRM refuses or the connection has no webhook settings.
 */
export async function webhooksCommand(ctx: CliContext, out: CliOutput, action: WebhooksAction, connectionId: string, options: { url?: string }): Promise<number> {
  const service = new WebhookRegistrationService(ctx.config, ctx.app.get(ConnectorRegistry), ctx.app.get(ConnectorSecretStore));
  const scrubber = ctx.app.get(SecretScrubber);
  let answer: RegistrationAnswer;
  try {
    answer = await service[action](connectionId, options.url);
  } catch (error) {
    if (error instanceof WebhookSetupError) {
      out.error(error.message);
      return 1;
    }
    const reason = error instanceof Error ? error.message : String(error);
    out.error(`connection ${connectionId}: webhooks ${action} failed: ${scrubber.text(reason)}`);
    return 1;
  }
  if (ctx.json) printJson(ctx, out, answer);
  else for (const line of answerLines(answer)) out.line(scrubber.text(line));
  return 0;
}

export function answerLines(answer: RegistrationAnswer): string[] {
  const events = (list: string[]) => (list.length ? ` (${list.join(', ')})` : '');
  switch (answer.action) {
    case 'registered':
      return [
        `connection ${answer.connection}: webhook registered: ${answer.registration.url}${events(answer.registration.events)}` +
          (answer.registration.id ? ` [id ${answer.registration.id}]` : ''),
        ...(answer.replaced ? [`  (${answer.replaced} earlier registration${answer.replaced === 1 ? '' : 's'} of this connection removed first)`] : []),
      ];
    case 'listed':
      if (!answer.registrations) return [`connection ${answer.connection}: ${answer.steps?.join(' ') ?? ''}`];
      if (!answer.registrations.length) return [`connection ${answer.connection}: no webhook registered`];
      return [
        `connection ${answer.connection}: ${answer.registrations.length} webhook${answer.registrations.length === 1 ? '' : 's'} registered`,
        ...answer.registrations.map((r) => `  ${r.url}${events(r.events)}${r.id ? ` [id ${r.id}]` : ''}`),
      ];
    case 'unregistered':
      return [`connection ${answer.connection}: ${answer.removed} webhook registration${answer.removed === 1 ? '' : 's'} removed`];
    case 'manual':
      return [`connection ${answer.connection}: register the webhook by hand:`, ...answer.steps.map((step, i) => `  ${i + 1}. ${step}`)];
  }
}
