import * as fs from 'fs';

/**
 * Lets plain Node `require()` a plugin dropped in as TypeScript source (index.ts, no build step).
 * Installed only when a plugin has no compiled .js; compiles with the project's own `typescript`
 * (transpile only: type errors are the plugin author's business, syntax errors still fail the load).
 */

type ModuleWithCompile = NodeJS.Module & { _compile(code: string, filename: string): void };

export function ensureTypeScriptHook(): void {
  // Under jest (ts-jest) `require.extensions` is absent and .ts files are already transformed.
  const extensions = (require as NodeJS.Require).extensions as NodeJS.RequireExtensions | undefined;
  if (!extensions || extensions['.ts']) return;
  extensions['.ts'] = (module, filename) => {
    (module as ModuleWithCompile)._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
  };
}

function transpile(source: string, fileName: string): string {
  // Loaded lazily: the compiler is large and most daemons never need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const output = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      sourceMap: false,
    },
  });
  const syntaxErrors = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntaxErrors.length > 0) {
    const first = syntaxErrors[0];
    const where = first.file && first.start !== undefined ? first.file.getLineAndCharacterOfPosition(first.start) : null;
    const text = ts.flattenDiagnosticMessageText(first.messageText, '\n');
    throw new Error(`${fileName}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: ${text}`);
  }
  return output.outputText;
}
