/**
 * `status_map`: CRM stage -> the service's status id. Keys are exact stages or patterns where `*` stands for
 * any text (`"cancel-*"`, `"C1:*"`, `"*"` for every other stage). An exact key wins; among patterns the most
 * specific wins (more fixed characters, then fewer `*`); a stage nothing matches is sent unchanged.
 */
export type StatusMapper = (stage: string) => string;

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
  const patterns: Pattern[] = Object.keys(map)
    .filter((key) => key.includes('*'))
    .map((key) => ({
      key,
      regex: new RegExp(`^${key.split('*').map(escapeRegExp).join('.*')}$`, 's'),
      fixed: key.replace(/\*/g, '').length,
      stars: key.split('*').length - 1,
    }))
    .sort((a, b) => b.fixed - a.fixed || a.stars - b.stars);
  return (stage) => {
    if (Object.prototype.hasOwnProperty.call(map, stage)) return String(map[stage]);
    const pattern = patterns.find((p) => p.regex.test(stage));
    return pattern ? String(map[pattern.key]) : stage;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
