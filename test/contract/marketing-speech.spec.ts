import { CalltrackingCreateRequest, TrackerClient, formatPeriodBound, formatPlainDate, formatTrackerDate } from '../../src/tracker';
import { ContractSandbox } from './contract-sandbox';
import { expectPlanExercised } from './contract-plan';
import {
  arrayOf, dateTime, expectEach, int, nullOr, num, obj, oneOf, plainDate, str, timestamp, zeroOne,
} from './shapes';

const DAY = 86_400_000;

/** Call tracking script, as the specification's field table gives it. */
const SCRIPT_SHAPE = {
  id: int, name: str, creation_date: timestamp, is_enabled: zeroOne, call_count: int, accuracy: nullOr(int), needed_phone_count: null,
  options: {
    calltracking_type: oneOf('dynamic', 'static'), static_source: nullOr(str), css_selector: arrayOf(str), phone_format: str,
    redirect: { type: oneOf('phone', 'sip', 'sip_trunk'), value: str },
    segments: { asymmetricMatch: (v: unknown) => !!v && typeof v === 'object' }, target_call_time: int,
  },
  integration: {
    is_lead_auto_create: oneOf(0, 1, '0', '1'),
    crm: { enabled: int, custom_fields: arrayOf({ asymmetricMatch: (f: any) => typeof f?.id === 'string' && typeof f?.value === 'string' }) },
    webhook: nullOr({ asymmetricMatch: (w: any) => w?.url === null || typeof w?.url === 'string' }),
    webhook_start: nullOr({ asymmetricMatch: (w: any) => w?.url === null || typeof w?.url === 'string' }),
    google_analytics: nullOr(obj),
  },
};

const DICTIONARY_SHAPE = {
  id: str, name: str, color: str, is_system: zeroOne, is_problem: zeroOne, is_for_operator: zeroOne, is_for_client: zeroOne,
};

/** First and last day of the month after the current one (UTC): a media plan month. */
function nextMonth(): { date_from: string; date_to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
  return { date_from: formatPlainDate(first), date_to: formatPlainDate(last) };
}

describe('contract: channels, expenses, call tracking, media plans, speech', () => {
  let sandbox: ContractSandbox;
  let client: TrackerClient;
  let channel: string;

  beforeAll(async () => {
    sandbox = await ContractSandbox.start();
    client = sandbox.client();
  });
  afterAll(() => sandbox?.close());

  describe('channels and expenses', () => {
    it('channels.list answers channels with name, system_name and icon', async () => {
      const answer = await client.channels.list();
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, { name: str, system_name: str, icon: str });
      channel = answer.data[0].system_name;
    });

    it('channels.listExpenses answers a top-level array of expenses', async () => {
      const answer = await client.channels.listExpenses();
      expectEach(answer, { id: str, source: str, name: str, from_date: str, to_date: str, timezone: str, marketing_cost: int });
    });

    it('add, update and delete an expense', async () => {
      const added = await client.channels.addExpense({
        source: channel, from_date: '2026-10-01', to_date: '2026-10-31', timezone: 'Europe/Moscow', marketing_cost: 12000,
      });
      expect(added).toMatchObject({
        status: 'success',
        data: {
          id: str, date_from: str, date_to: str, timezone: str, marker: channel, title: str, comment: nullOr(str),
          cost: 12000, create_date: dateTime, update_date: dateTime,
        },
      });
      expect(added.data.date_from).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const id = Number(added.data.id);
      const byId = async () => (await client.channels.listExpenses()).find((e) => Number(e.id) === id);
      expect(await byId()).toMatchObject({ source: channel, marketing_cost: 12000, from_date: str, to_date: str });

      await expect(client.channels.updateExpense({ id, marketing_cost: 15000 })).resolves.toMatchObject({ status: 'success' });
      expect(await byId()).toMatchObject({ marketing_cost: 15000 });

      await expect(client.channels.deleteExpense(id)).resolves.toMatchObject({ status: 'success' });
      expect(await byId()).toBeUndefined();
    });
  });

  describe('call tracking scripts', () => {
    let scriptId: number;
    const script = (): CalltrackingCreateRequest => ({
      name: 'Contract script', is_enabled: 1, creation_date: formatTrackerDate(new Date()),
      options: {
        calltracking_type: 'dynamic', segments: [['source', '=', channel]], phone_format: '7XXXXXXXXXX',
        css_selector: ['.phone', '#main-phone'], redirect: { type: 'phone', value: '+74950000000' },
        replaceable_numbers: ['+74951112233', '+74951112244'],
      },
      integration: {
        crm: { is_enabled: 0, custom_fields: [] }, webhook: { url: 'https://hooks.example.com/end' }, webhook_start: { url: null },
        google_analytics: { tracking_id: 'UA-123-1', action: 'call', category: 'phone', label: 'tracker' }, is_lead_auto_create: 1,
      },
    });
    const listed = async (isDeleted: 0 | 1) => (await client.calltracking.list({ is_deleted: isDeleted })).data;

    it('calltracking.create answers the script (enabled), total and status', async () => {
      const answer = await client.calltracking.create(script());
      scriptId = answer.data.id;
      expect(answer).toMatchObject({ status: 'success', total: int, data: { ...SCRIPT_SHAPE, name: 'Contract script', is_enabled: 1 } });
      // An integer here; the string form and sip_trunk_postfix belong to the list response only.
      expect(answer.data.integration.is_lead_auto_create).toBe(1);
      expect(answer.data.options.redirect).not.toHaveProperty('sip_trunk_postfix');
    });

    it('calltracking.list answers scripts with sip_trunk_postfix and string is_lead_auto_create', async () => {
      const answer = await client.calltracking.list({ is_deleted: 0 });
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, SCRIPT_SHAPE);
      const mine = answer.data.find((s) => s.id === scriptId);
      expect(mine).toMatchObject({ integration: { is_lead_auto_create: '1' } });
      expect(mine!.options.redirect).toMatchObject({ type: 'phone', value: '+74950000000', sip_trunk_postfix: nullOr(str) });
    });

    it('calltracking.update with is_enabled 0 deactivates; the script stays', async () => {
      await expect(client.calltracking.update({ id: scriptId, is_enabled: 0 })).resolves.toMatchObject({ status: 'success' });
      expect((await listed(0)).find((s) => s.id === scriptId)).toMatchObject({ is_enabled: 0 });
    });

    it('calltracking.delete removes the script; is_deleted 1 lists it', async () => {
      await expect(client.calltracking.delete(scriptId)).resolves.toMatchObject({ status: 'success' });
      expect((await listed(0)).map((s) => s.id)).not.toContain(scriptId);
      expect((await listed(1)).map((s) => s.id)).toContain(scriptId);
    });
  });

  describe('media plans', () => {
    const month = nextMonth();
    const metrics = (leads: number) => [
      { name: 'leads' as const, value: leads }, { name: 'marketing_cost' as const, value: 100000 }, { name: 'cpl' as const, value: 2500 },
    ];
    const plansOfMonth = async () => {
      const answer = await client.mediaplans.list(month);
      expect(answer).toMatchObject({ status: 'success', total: int });
      return answer.data.filter((p) => p.channel === channel);
    };

    it('create, list, update and delete a plan for a whole month', async () => {
      await expect(client.mediaplans.create({ channel, ...month, metrics: metrics(40) })).resolves.toMatchObject({ status: 'success' });
      const [plan] = await plansOfMonth();
      expect(plan).toMatchObject({
        id: str, channel, date_from: month.date_from, date_to: month.date_to,
        metrics: arrayOf({ asymmetricMatch: (m: any) => ['leads', 'marketing_cost', 'cpl'].includes(m?.name) && typeof m?.value === 'number' }),
      });
      expect(plan.metrics.find((m) => m.name === 'leads')?.value).toBe(40);

      await expect(client.mediaplans.update({ id: plan.id, channel, ...month, metrics: metrics(50) }))
        .resolves.toMatchObject({ status: 'success' });
      expect((await plansOfMonth())[0].metrics.find((m) => m.name === 'leads')?.value).toBe(50);

      await expect(client.mediaplans.delete(plan.id)).resolves.toMatchObject({ status: 'success' });
      expect((await plansOfMonth()).map((p) => p.id)).not.toContain(plan.id);
    });

    it('mediaplans.list rejects days other than the first and last of one month with 400', async () => {
      const error = await client.mediaplans.list({ date_from: '2026-10-02', date_to: '2026-10-31' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ httpStatus: 400, description: expect.stringContaining('date_from') });
    });

    it('mediaplans.list of the seeded months answers plans with plain dates', async () => {
      const now = new Date();
      const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
      const answer = await client.mediaplans.list({ date_from: formatPlainDate(first), date_to: formatPlainDate(last) });
      expectEach(answer.data, { id: str, channel: str, date_from: plainDate, date_to: plainDate, metrics: arrayOf(obj) });
    });
  });

  describe('speech analytics', () => {
    let dictionaryId: string;

    it('speech.listDictionaries answers system (system_N) and custom dictionaries', async () => {
      const answer = await client.speech.listDictionaries();
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, DICTIONARY_SHAPE);
      const system = answer.data.filter((d) => d.is_system === 1);
      expect(system.length).toBeGreaterThan(0);
      expect(system.every((d) => /^system_\d+$/.test(d.id))).toBe(true);
    });

    it('speech.createDictionary answers every dictionary, the new one among them', async () => {
      const answer = await client.speech.createDictionary({
        name: 'Contract words', is_problem: true, is_for_operator: true, is_for_client: false, color: '#ff0000',
        phrases: ['hello', 'price'],
      });
      expect(answer).toMatchObject({ status: 'success', total: int });
      expectEach(answer.data, DICTIONARY_SHAPE);
      const mine = answer.data.find((d) => d.name === 'Contract words');
      expect(mine).toMatchObject({ is_system: 0, is_problem: 1, is_for_operator: 1, is_for_client: 0, color: '#ff0000' });
      dictionaryId = mine!.id;
    });

    it('speech.listPhrases answers dictionary_id (integer) and the phrases', async () => {
      const answer = await client.speech.listPhrases(dictionaryId);
      expect(answer).toMatchObject({ status: 'success', data: { dictionary_id: int, phrases: ['hello', 'price'] } });
      expect(String(answer.data.dictionary_id)).toBe(String(dictionaryId));
    });

    it('speech.updateDictionary changes name and phrases; speech.deleteDictionary removes it', async () => {
      await expect(client.speech.updateDictionary({ id: dictionaryId, name: 'Contract renamed', phrases: ['discount'] }))
        .resolves.toMatchObject({ status: 'success' });
      expect((await client.speech.listPhrases(dictionaryId)).data.phrases).toEqual(['discount']);
      expect((await client.speech.listDictionaries()).data.find((d) => d.id === dictionaryId)).toMatchObject({ name: 'Contract renamed' });

      await expect(client.speech.deleteDictionary(dictionaryId)).resolves.toMatchObject({ status: 'success' });
      expect((await client.speech.listDictionaries()).data.map((d) => d.id)).not.toContain(dictionaryId);
    });

    it('speech.addCall stores a call that speech.listCalls answers as a Speech call', async () => {
      const date = new Date(Date.now() - 60_000);
      await expect(client.speech.addCall({
        date: formatTrackerDate(date), callee: '+74950000000', caller: '+79991234567',
        file_url: 'https://records.example.com/contract-call.mp3', operator: 'Anna', comment: 'contract', is_swapped: 0,
        is_outcoming: 0, marker: null, visit_id: null, fields: [{ title: 'Region', name: 'region', value: 'Moscow' }],
      })).resolves.toMatchObject({ status: 'success' });

      const answer = await client.speech.listCalls({
        period: { from: formatPeriodBound(new Date(date.getTime() - DAY)), to: formatPeriodBound(new Date(Date.now() + DAY)) },
        sort: ['date', 'desc'], limit: 50, offset: 0,
      });
      expectEach(answer.data, {
        id: str, date: timestamp, callee: str, caller: str, duration: int, answer_duration: int, waiting_time: int, link: nullOr(str),
        speech_statistics: { silence_percent: num, interrupt_total_count: num, speech_operator_to_client_ratio: str },
        matched_dictionaries: { client_dictionary_ids: arrayOf(str), operator_dictionary_ids: arrayOf(str) },
        transcriptions: arrayOf({
          asymmetricMatch: (t: any) => Number.isInteger(t?.id) && (t?.is_client === 0 || t?.is_client === 1)
            && typeof t?.text === 'string' && Number.isInteger(t?.time) && Array.isArray(t?.dictionary_matches),
        }),
      });
      expect(answer.data.find((c) => c.caller === '+79991234567' && c.callee === '+74950000000')).toBeDefined();
      expect(answer.data[0].speech_statistics.speech_operator_to_client_ratio).toMatch(/^\d+\/\d+$/);
    });
  });

  describe('coverage', () => {
    it('exercised every operation of this file\'s share of TRACKER_OPERATIONS', () => {
      expectPlanExercised('marketing-speech', sandbox.exercised);
    });
  });
});
