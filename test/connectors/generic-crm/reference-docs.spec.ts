import 'reflect-metadata';
import { StagesDefinition } from '../../../connectors/generic-crm/definition/stages-definition';
import { readFileSync } from 'fs';
import { join } from 'path';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';
import * as discoverDefinition from '../../../connectors/generic-crm/definition/discover-definition';
import * as sourceDefinition from '../../../connectors/generic-crm/definition/source-definition';
import * as streamDefinition from '../../../connectors/generic-crm/definition/stream-definition';
import { GenericCrmSettings } from '../../../connectors/generic-crm/settings';
import * as writeBackDefinition from '../../../connectors/generic-crm/definition/write-back-definition';
import * as leadDeliveryDefinition from '../../../connectors/generic-crm/definition/lead-delivery-definition';
import { settingsProblems } from '../../../src/connectors/settings-validation';

/**
 * connectors/README.md's generic CRM reference against the definition's validators: every option of every
 * settings class has a row (and no row names an option that does not exist), every allowed value of an
 * option with a fixed set is named in its row, and every row's example validates as that class.
 */

type Class = new () => object;

/** class-transformer keeps the @Type targets here; the package ships no typings for this entry point */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** Where each settings class is documented: a `#### \`heading\`` with a table of its options. */
const HEADINGS = new Map<Class, string>([
  [GenericCrmSettings, 'settings'],
  [sourceDefinition.BaseUrlRewriteDefinition, 'settings.base_url_rewrite'],
  [sourceDefinition.AuthDefinition, 'settings.auth'],
  [sourceDefinition.RateLimitDefinition, 'settings.rate_limit'],
  [sourceDefinition.RetryDefinition, 'settings.retry'],
  [sourceDefinition.RetryAnswerDefinition, 'settings.retry.extra[]'],
  [sourceDefinition.RateBlockDefinition, 'settings.rate_block'],
  [sourceDefinition.DailyLimitDefinition, 'settings.daily_limit'],
  [sourceDefinition.DailyLimitAnswerDefinition, 'settings.daily_limit.answers[]'],
  [sourceDefinition.ErrorDefinition, 'settings.errors[]'],
  [streamDefinition.StreamsDefinition, 'settings.streams'],
  [streamDefinition.StreamDefinition, 'streams.<name>'],
  [streamDefinition.RequestDefinition, 'streams.<name>.request'],
  [streamDefinition.PaginatorDefinition, 'streams.<name>.paginator'],
  [streamDefinition.IncrementalDefinition, 'streams.<name>.incremental'],
  [streamDefinition.FirstReadDefinition, 'streams.<name>.first_read'],
  [streamDefinition.DatesDefinition, 'streams.<name>.dates'],
  [streamDefinition.CustomFieldsDefinition, 'streams.<name>.custom_fields'],
  [streamDefinition.LabelsDefinition, 'streams.<name>.custom_fields.labels'],
  [streamDefinition.EnrichDefinition, 'streams.<name>.enrich[]'],
  [streamDefinition.EnrichOptionalDefinition, 'streams.<name>.enrich[].optional'],
  [writeBackDefinition.WriteBackDefinition, 'settings.write_back'],
  [writeBackDefinition.WriteRequestDefinition, 'settings.write_back.request'],
  [leadDeliveryDefinition.LeadDeliveryDefinition, 'settings.lead_delivery'],
  [leadDeliveryDefinition.LeadRequestsDefinition, 'settings.lead_delivery.requests'],
  [leadDeliveryDefinition.LeadRequestDefinition, 'settings.lead_delivery.requests.<step>'],
  [StagesDefinition, 'settings.stages'],
  [discoverDefinition.DiscoverDefinition, 'settings.discover'],
  [discoverDefinition.DiscoverListDefinition, 'settings.discover.<list>'],
  [discoverDefinition.DealStatusDefinition, 'settings.discover.deal_statuses[]'],
]);

interface Row {
  option: string;
  what: string;
  example: string;
}

const readme = readFileSync(join(__dirname, '../../../connectors/README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## The generic CRM connector'));

function options(target: Class): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  return [...new Set(metadata.map((entry) => entry.propertyName))];
}

function allowedValues(target: Class, option: string): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const isIn = metadata.find((entry) => entry.propertyName === option && entry.name === 'isIn');
  return isIn ? (isIn.constraints[0] as unknown[]).map(String) : [];
}

/** Every class a connection's settings may hold, found through the @Type decorators from GenericCrmSettings. */
function reachableClasses(): Class[] {
  const found: Class[] = [GenericCrmSettings];
  for (let i = 0; i < found.length; i++) {
    for (const option of options(found[i])) {
      const nested = defaultMetadataStorage.findTypeMetadata(found[i], option)?.typeFunction() as Class | undefined;
      if (nested && !found.includes(nested)) found.push(nested);
    }
  }
  return found;
}

function table(heading: string): Row[] {
  const start = section.indexOf(`#### \`${heading}\`\n`);
  if (start < 0) return [];
  const body = section.slice(start).split('\n').slice(1);
  const end = body.findIndex((line) => line.startsWith('#'));
  return body
    .slice(0, end < 0 ? undefined : end)
    .map((line) => /^\| `([^`]+)` \| (.*) \| `(.*)` \|$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, option, what, example]) => ({ option, what, example }));
}

describe('connectors/README.md: the generic CRM reference', () => {
  it('has a table for every settings class (a new nested class needs its own section)', () => {
    const undocumented = reachableClasses().filter((target) => !HEADINGS.has(target)).map((target) => target.name);
    expect(undocumented).toEqual([]);
    const missing = [...HEADINGS.values()].filter((heading) => table(heading).length === 0);
    expect(missing).toEqual([]);
  });

  describe.each([...HEADINGS].map(([target, heading]) => ({ target, heading, name: target.name })))('$heading ($name)', ({ target, heading }) => {
    const rows = table(heading);

    it('documents exactly the options the validators accept', () => {
      expect(rows.map((row) => row.option).sort()).toEqual(options(target).sort());
    });

    it('names every allowed value of an option with a fixed set', () => {
      const unnamed = rows.flatMap((row) =>
        allowedValues(target, row.option)
          .filter((value) => !`${row.what} ${row.example}`.includes(`\`${value}\``) && !row.example.endsWith(`: ${value}`))
          .map((value) => `${row.option}: ${value}`),
      );
      expect(unnamed).toEqual([]);
    });

    it('gives an example of each option that the validators accept', () => {
      const known = options(target);
      const problems = rows.flatMap((row) => {
        const example: unknown = parse(row.example);
        if (typeof example !== 'object' || example === null || !(row.option in example)) {
          return [`${row.option}: the example ${row.example} does not set ${row.option}`];
        }
        // other required options of the class are not part of one row's example
        return settingsProblems(target, example, 'example').filter((problem) => {
          const key = /^example\.([^.:[]+)/.exec(problem)?.[1];
          return key === row.option || (key !== undefined && !known.includes(key));
        });
      });
      expect(problems).toEqual([]);
    });
  });
});
