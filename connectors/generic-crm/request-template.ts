import jsonata from 'jsonata';
import type { LeadRequestDefinition } from './definition/lead-delivery-definition';
import { RequestSpec } from './http/requester';
import { renderTemplate, TemplateVariables } from './templates';

/**
 * A declarative CRM request (lead delivery's `requests.<step>`, a flow's `actions.<name>`) made concrete: its
 * templates rendered with the step's variables.
 */
export async function renderRequest(request: LeadRequestDefinition, variables: TemplateVariables): Promise<RequestSpec> {
  return {
    method: request.method ?? 'GET',
    path: String(await renderTemplate(request.path, variables)),
    query: request.query ? ((await renderTemplate(request.query, variables)) as Record<string, unknown>) : undefined,
    body: request.body === undefined ? undefined : await renderTemplate(request.body, variables),
    headers: request.headers,
  };
}

/** What the request's `answer` (JSONata, the variables bound) makes of an answer's body; without one, the body. `at` names the setting. */
export async function evaluateAnswer(at: string, request: LeadRequestDefinition, body: unknown, variables: TemplateVariables): Promise<unknown> {
  if (!request.answer) return body;
  try {
    return await jsonata(request.answer.replace(/^=/, '')).evaluate(body ?? {}, variables);
  } catch (error) {
    throw new Error(`${at}.answer: ${(error as Error).message}`);
  }
}
