// What can be checked of the deployment files without a Docker daemon or systemd (none on CI machines):
// node runs directly as the main process (behind an init in containers), never behind a shell or npm; the
// image is non-root with a HEALTHCHECK and no secrets; the scaled worker holds no port and no channel token.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/index.ts';
import { dockerStages, durationSecs, execForm, parseUnit } from '../../helpers/deploy-parsers.ts';
import { parseYaml, type YamlValue } from '../../helpers/mini-yaml.ts';
import { PROJECT_ROOT, sourceFiles } from '../../helpers/source-files.ts';

const read = (rel: string) => readFileSync(join(PROJECT_ROOT, rel), 'utf8');
const ROLES = new Set(['start', 'gateway', 'worker']);
const CONFIG_IN_IMAGE = '/etc/baton/baton.toml';
/** Channel credentials: never in a worker. */
const CHANNEL_SECRET = /(BOT_TOKEN|APP_TOKEN|SIGNING_SECRET)$/;
/** Everything a worker container may be given: Redis, the ops token its config names, model keys, logging. */
const WORKER_ENV = new Set([
  'REDIS_URL',
  'BATON_API_TOKEN',
  'BATON_LOG_LEVEL',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
]);

type Map = { [key: string]: YamlValue };
const isMap = (v: YamlValue | undefined): v is Map =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: YamlValue | undefined): YamlValue[] => (Array.isArray(v) ? v : []);

const stages = dockerStages(read('Dockerfile'));
const runtime = stages.at(-1) ?? [];
const all = (stage: typeof runtime, keyword: string) => stage.filter((i) => i.keyword === keyword);
const last = (stage: typeof runtime, keyword: string) => all(stage, keyword).at(-1)?.args ?? '';

const compose = parseYaml(read('docker-compose.yml'));
const services = isMap(compose) && isMap(compose.services) ? compose.services : {};
const service = (name: string): Map => {
  const s = services[name];
  if (!isMap(s)) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};
/** Services that run the baton image (built from ./Dockerfile). */
const batonServices = Object.entries(services).filter(([, s]) => isMap(s) && s.build !== undefined);

/** The environment compose gives a service: literal values, `${X:?…}` as a set variable, bare keys unset. */
function composeEnv(s: Map): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(isMap(s.environment) ? s.environment : {})) {
    if (typeof v === 'string') env[k] = v.startsWith('${') ? `set-by-operator-${k.toLowerCase()}` : v;
  }
  return env;
}

async function dockerConfig(env: Record<string, string>) {
  return loadConfigFile(join(PROJECT_ROOT, 'config', 'docker.toml'), env);
}

describe('Dockerfile', () => {
  it('is multi-stage on node:24-slim and installs production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s[0]?.args).toMatch(/^node:24-slim(\s|$)/);
    const build = stages[0] ?? [];
    expect(all(build, 'RUN').some((r) => /npm ci\b/.test(r.args) && /--omit=dev/.test(r.args))).toBe(true);
  });

  it('runs node directly as the main process (exec form, no shell), as a non-root user', () => {
    expect(execForm(last(runtime, 'ENTRYPOINT'))).toEqual(['node', 'src/cli.ts']);
    const cmd = execForm(last(runtime, 'CMD'));
    expect(ROLES.has(cmd[0] ?? '')).toBe(true);
    expect(cmd).toEqual(['start', '--config', CONFIG_IN_IMAGE]);
    const user = last(runtime, 'USER');
    expect(user).not.toBe('');
    expect(user.split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  it('has a HEALTHCHECK on /healthz that needs no curl', () => {
    const check = last(runtime, 'HEALTHCHECK');
    expect(check).toMatch(/\bCMD\s+\[/);
    const argv = execForm(check.slice(check.indexOf('[')));
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).toContain('/healthz');
  });

  it('installs bubblewrap and ca-certificates in the runtime stage; config and data are volumes', async () => {
    const installs = all(runtime, 'RUN')
      .map((r) => r.args)
      .join(' ');
    expect(installs).toMatch(/apt-get install[^&]*\bbubblewrap\b/);
    expect(installs).toMatch(/apt-get install[^&]*\bca-certificates\b/);
    const volumes = all(runtime, 'VOLUME').flatMap((v) => execForm(v.args));
    expect(volumes).toContain('/etc/baton');
    const loaded = await dockerConfig({ REDIS_URL: 'redis://redis:6379', BATON_API_TOKEN: 'x'.repeat(32) });
    expect(volumes).toContain(loaded.config?.gateway.data_dir);
  });

  it('bakes in no secret', () => {
    for (const ins of runtime.concat(stages[0] ?? [])) {
      if (ins.keyword === 'ENV' || ins.keyword === 'ARG')
        expect(ins.args).not.toMatch(/TOKEN|KEY|SECRET|PASSWORD/i);
      if (ins.keyword === 'COPY') expect(ins.args).not.toMatch(/\.env\b/);
    }
    // The config it copies names credentials only as ${ENV_VAR}.
    for (const line of read('config/docker.toml').split('\n')) {
      const m = /^\s*(api_key|bot_token|app_token|signing_secret|api_token)\s*=\s*"([^"]*)"/.exec(line);
      if (m) expect(m[2]).toMatch(/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/);
    }
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const p of ['node_modules', '.git', '.env', 'data', 'test/bench/results'])
      expect(ignored).toContain(p);
  });

  it('leaves nothing the runtime imports to the omitted dev dependencies', () => {
    const deps = Object.keys((JSON.parse(read('package.json')) as { dependencies: object }).dependencies);
    const imported = new Set<string>();
    for (const file of [...sourceFiles('src'), ...sourceFiles('channels')]) {
      for (const m of read(file).matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^'.][^']*)'/gm)) {
        const spec = m[1] ?? '';
        if (!spec.startsWith('node:'))
          imported.add(
            spec
              .split('/')
              .slice(0, spec.startsWith('@') ? 2 : 1)
              .join('/'),
          );
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].filter((p) => !deps.includes(p))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  it('runs every baton service from the image, node as PID 1 behind init, no shell', () => {
    expect(batonServices.map(([name]) => name).sort()).toEqual(['baton', 'gateway', 'worker']);
    for (const [name, s] of batonServices) {
      if (!isMap(s)) continue;
      expect(s.build, name).toBe('.');
      expect(s.init, name).toBe('true');
      expect(s.entrypoint, name).toBeUndefined(); // the image's ENTRYPOINT: node src/cli.ts
      const command = asList(s.command);
      expect(ROLES.has(String(command[0])), name).toBe(true);
      expect(command.slice(1), name).toEqual(['--config', CONFIG_IN_IMAGE]);
      expect(asList(s.volumes), name).toContain(`./config/docker.toml:${CONFIG_IN_IMAGE}:ro`);
    }
    for (const [name, s] of Object.entries(services)) {
      if (!isMap(s)) continue;
      const argv = [...asList(s.entrypoint), ...asList(s.command)].map(String);
      expect(typeof s.command === 'string' || typeof s.entrypoint === 'string', name).toBe(false);
      expect(
        argv.some((a) => /^(\/bin\/)?(ba)?sh$/.test(a)),
        name,
      ).toBe(false);
    }
  });

  it('has both shapes: one process by default, one gateway and scalable workers in the scale profile', () => {
    const roleOf = (name: string) => asList(service(name).command)[0];
    expect(service('baton').profiles).toBeUndefined();
    expect(roleOf('baton')).toBe('start');
    expect(asList(service('gateway').profiles)).toEqual(['scale']);
    expect(roleOf('gateway')).toBe('gateway');
    expect(asList(service('worker').profiles)).toEqual(['scale']);
    expect(roleOf('worker')).toBe('worker');
    // `--scale worker=3` needs a worker without a fixed name or host port.
    expect(service('worker').container_name).toBeUndefined();
  });

  it('gives the scaled worker no port and no channel token', () => {
    const worker = service('worker');
    expect(worker.ports).toBeUndefined();
    expect(worker.expose).toBeUndefined();
    expect(worker.env_file).toBeUndefined(); // a .env file would hand it every channel token
    const keys = Object.keys(isMap(worker.environment) ? worker.environment : {});
    expect(keys.filter((k) => !WORKER_ENV.has(k) || CHANNEL_SECRET.test(k))).toEqual([]);
    expect(worker.healthcheck).toEqual({ disable: 'true' }); // it serves no /healthz
  });

  it('loads config/docker.toml cleanly with the environment each service gets', async () => {
    for (const [name, s] of batonServices) {
      if (!isMap(s)) continue;
      const loaded = await dockerConfig(composeEnv(s));
      expect(
        loaded.diagnostics.filter((d) => d.severity === 'error'),
        name,
      ).toEqual([]);
      expect(Object.keys(loaded.config?.agents ?? {}), name).toContain('main');
    }
  });

  it('stops within a stop_grace_period longer than [worker] shutdown_grace_secs', async () => {
    const grace = (await dockerConfig(composeEnv(service('baton')))).config?.worker.shutdown_grace_secs ?? 0;
    expect(grace).toBeGreaterThan(0);
    for (const [name, s] of batonServices) {
      if (isMap(s)) expect(durationSecs(String(s.stop_grace_period)), name).toBeGreaterThanOrEqual(grace + 5);
    }
  });

  it('keeps Redis on AOF with noeviction', () => {
    const argv = asList(service('redis').command).map(String).join(' ');
    expect(argv).toContain('--appendonly yes');
    expect(argv).toContain('--maxmemory-policy noeviction');
  });
});

describe('systemd units', () => {
  const dir = join('config', 'systemd');
  const units = readdirSync(join(PROJECT_ROOT, dir)).filter((f) => f.endsWith('.service'));
  const unit = (f: string) => parseUnit(read(join(dir, f))).Service ?? {};
  const one = (f: string, key: string) => unit(f)[key]?.at(-1) ?? '';
  /** Hardening options that stop bubblewrap (namespaces, its own /proc) or Node's JIT. */
  const BREAKS_SANDBOX = [
    'RestrictNamespaces',
    'ProtectKernelTunables',
    'ProtectKernelLogs',
    'ProtectProc',
    'ProcSubset',
    'SystemCallFilter',
    'PrivateUsers',
  ];

  it('cover both shapes', () => {
    expect(units.sort()).toEqual(['baton-gateway.service', 'baton-worker@.service', 'baton.service']);
  });

  it.each(units)(
    '%s runs node directly, stops on SIGTERM after the grace, restarts on failure',
    async (f) => {
      const argv = one(f, 'ExecStart').split(/\s+/);
      expect(argv[0]).toMatch(/^\/\S*\/node$/);
      expect(argv[1]).toBe('src/cli.ts');
      expect(ROLES.has(argv[2] ?? '')).toBe(true);
      expect(argv.join(' ')).not.toMatch(/\b(sh|bash|npm|npx)\b/);
      expect(one(f, 'KillSignal')).toBe('SIGTERM');
      // `systemctl reload` sends SIGHUP: the process re-reads its config (README "Reloading the config").
      expect(one(f, 'ExecReload')).toBe('/bin/kill -HUP $MAINPID');
      expect(one(f, 'Restart')).toBe('on-failure');
      expect(one(f, 'User')).not.toMatch(/^(|root|0)$/);
      expect(one(f, 'MemoryDenyWriteExecute')).not.toBe('yes');
      const loaded = await dockerConfig({ REDIS_URL: 'redis://x:6379', BATON_API_TOKEN: 'x'.repeat(32) });
      expect(durationSecs(one(f, 'TimeoutStopSec'))).toBeGreaterThan(
        loaded.config?.worker.shutdown_grace_secs ?? 0,
      );
      if (argv[2] !== 'gateway') {
        // This role runs shell commands in bubblewrap.
        for (const key of BREAKS_SANDBOX) expect(unit(f)[key], `${f} ${key}`).toBeUndefined();
        expect(read(join(dir, f))).not.toMatch(/^Environment=.*(BOT_TOKEN|APP_TOKEN|SIGNING_SECRET)/m);
      }
    },
  );

  it('the worker unit reads a secrets file of its own, not the gateway one', () => {
    expect(one('baton-worker@.service', 'EnvironmentFile')).not.toBe(
      one('baton-gateway.service', 'EnvironmentFile'),
    );
  });
});

describe('npm scripts', () => {
  it('exec node, so the signal npm forwards reaches baton itself', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toMatch(/^exec node src\/cli\.ts start /);
    expect(scripts.baton).toBe('exec node src/cli.ts');
  });
});
