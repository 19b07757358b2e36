import type { Currency } from '../../tracker/types/projects.types';

/** Currencies a project may be created with (BYR is outdated but still accepted). */
export const PROJECT_CURRENCIES: string[] = [
  'RUB', 'USD', 'EUR', 'UAH', 'KZT', 'BYN', 'BYR', 'CHF', 'GBP', 'CZK', 'AED',
] satisfies Currency[];
