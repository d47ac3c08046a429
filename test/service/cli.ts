/**
 * `npm run service -- [options]`: runs the reference service until Ctrl+C or SIGTERM.
 * Options: see `--help` and README.md.
 */
import { startService } from './server';
import type { ServiceOptions } from './types';

const HELP = `Page Reports reference service

Usage: npm run service -- [options]

  --port N              TCP port on 127.0.0.1 (default 8787; 0 picks a free one)
  --keys a,b            API keys, each its own account (default demo-key)
  --forbidden-keys a,b  keys that authenticate but get 403
  --seed N              create N reports over several projects for the first key
  --rate-limit N        requests per minute and key (default 60; 0 = off)
  --rate-window-ms N    length of the rate-limit window (default 60000)
  --latency-ms N        every API answer waits N ms, like a service across a network (default 0)
  --analysis-delay-ms N each analysis (store, update=1) takes N ms longer (default 0)
  --faults              enable /__admin/* and the X-Fault header
  --no-cors             no CORS headers (a browser cannot call the API; default: Laravel's CORS)
  --data FILE           keep reports in FILE across restarts
  --fetch-timeout-ms N  page fetch timeout of the analysis (default 10000)
  --base-path /PATH      mount the service under PATH, as behind a reverse proxy (default: the root)
  --quiet               no request log
  --help                this text
`;

function fail(message: string): never {
  console.error(`service: ${message}\n\n${HELP}`);
  process.exit(2);
}

function integer(name: string, value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) fail(`${name} needs a non-negative integer`);
  return Number(value);
}

function list(name: string, value: string | undefined): string[] {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) fail(`${name} needs a comma-separated list`);
  return items;
}

/** Parses the command line into service options. */
export function parseArgs(argv: string[]): ServiceOptions {
  const options: ServiceOptions = { port: 8787, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--port':
        options.port = integer(name, value());
        break;
      case '--keys':
        options.keys = list(name, value());
        break;
      case '--forbidden-keys':
        options.forbiddenKeys = list(name, value());
        break;
      case '--seed':
        options.seed = integer(name, value());
        break;
      case '--rate-limit':
        options.rateLimit = integer(name, value());
        break;
      case '--rate-window-ms':
        options.rateWindowMs = integer(name, value());
        break;
      case '--latency-ms':
        options.latencyMs = integer(name, value());
        break;
      case '--analysis-delay-ms':
        options.analysisDelayMs = integer(name, value());
        break;
      case '--faults':
        options.faults = true;
        break;
      case '--no-cors':
        options.cors = false;
        break;
      case '--data':
        options.dataFile = value() ?? fail('--data needs a file name');
        break;
      case '--fetch-timeout-ms':
        options.fetchTimeoutMs = integer(name, value());
        break;
      case '--base-path':
        options.basePath = value() ?? fail('--base-path needs a path such as /team');
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '--help':
      case '-h':
        console.log(HELP);
        process.exit(0);
        break;
      default:
        fail(`unknown option ${arg}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const service = await startService(options);
  const keys = service.keys.filter((key) => !(options.forbiddenKeys ?? []).includes(key));
  console.log(`Page Reports reference service at ${service.url}`);
  console.log(`  API:       ${service.url}/api/v1`);
  console.log(`  Demo site: ${service.url}/demo-site/`);
  console.log(`  Keys:      ${keys.join(', ')}`);
  if (options.forbiddenKeys?.length) console.log(`  Forbidden: ${options.forbiddenKeys.join(', ')}`);
  if (options.seed) console.log(`  Seeded:    ${options.seed} reports`);
  if (options.latencyMs) console.log(`  Latency:   ${options.latencyMs} ms an answer`);
  if (options.analysisDelayMs) console.log(`  Analysis:  ${options.analysisDelayMs} ms longer`);
  if (options.faults) console.log(`  Faults:    ${service.url}/__admin/ and the X-Fault header`);
  if (options.cors === false) console.log('  CORS:      off (browsers cannot call the API)');
  if (options.dataFile) console.log(`  Data file: ${options.dataFile}`);
  console.log('Press Ctrl+C to stop.');
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error('service:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
