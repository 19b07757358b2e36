/**
 * `status_map`: CRM stage -> the service's status id. Keys are exact stages or patterns where `*` stands for
 * any text (`"cancel-*"`, `"C1:*"`, `"*"` for every other stage). An exact key wins; among patterns the most
 * specific wins (more fixed characters, then fewer `*`); a stage nothing matches is sent unchanged.
 */
export type StatusMapper = (stage: string) => string;

/** The status a stage is mapped to, or undefined when no key of the map covers it (it would be sent unchanged). */
export function mappedStatus(map: Record<string, string> | undefined, stage: string): string | undefined {
  if (!map) return undefined;
  if (Object.prototype.hasOwnProperty.call(map, stage)) return String(map[stage]);
  const key = patternsOf(map).find((p) => p.regex.test(stage))?.key;
  return key === undefined ? undefined : String(map[key]);
}

interface Pattern {
  key: string;
  regex: RegExp;
  fixed: number;
  stars: number;
}

const compiled = new WeakMap<Record<string, string>, StatusMapper>();

export function statusMapper(map: Record<string, string>): StatusMapper {
  let mapper = compiled.get(map);
  if (!mapper) {
    mapper = compile(map);
    compiled.set(map, mapper);
  }
  return mapper;
}

function compile(map: Record<string, string>): StatusMapper {
  const patterns = patternsOf(map);
  return (stage) => {
    if (Object.prototype.hasOwnProperty.call(map, stage)) return String(map[stage]);
    const pattern = patterns.find((p) => p.regex.test(stage));
    return pattern ? String(map[pattern.key]) : stage;
  };
}

/** The map's `*` keys, most specific first. */
function patternsOf(map: Record<string, string>): Pattern[] {
  return Object.keys(map)
    .filter((key) => key.includes('*'))
    .map((key) => ({
      key,
      regex: new RegExp(`^${key.split('*').map(escapeRegExp).join('.*')}$`, 's'),
      fixed: key.replace(/\*/g, '').length,
      stars: key.split('*').length - 1,
    }))
    .sort((a, b) => b.fixed - a.fixed || a.stars - b.stars);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
