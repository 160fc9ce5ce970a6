import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * The phone commands (`device activate`, `device config`, `sale`) are what a new user runs from the
 * README, once per sale: they load their own files only, not Nest, TypeORM, Fastify or
 * class-validator through the libraries' indexes (docs/decisions.md, "The CLI's phone commands load
 * only what they use"). Loaded as `npm run -s cli` loads them, in a process of their own.
 */
describe('the CLI phone commands', () => {
  it('should load no framework: Nest, TypeORM, Fastify, class-validator and pg stay out of the process', () => {
    const script = `
      require('./apps/cli/src/phone-commands.ts');
      const loaded = Object.keys(require.cache).filter((file) => file.includes('node_modules'));
      const heavy = ['@nestjs', 'typeorm', 'fastify', 'class-validator', 'class-transformer', '/pg/', 'rxjs'];
      process.stdout.write(JSON.stringify(heavy.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name.replace(/^\\//, '')))), null, 0));
    `;
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
