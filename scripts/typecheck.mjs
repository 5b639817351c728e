// Typechecks every workspace from source (no build outputs needed), two at a time.
import { spawn } from 'node:child_process';

const projects = [
  'packages/contract',
  'packages/domain',
  'apps/server',
  'apps/web',
  'e2e',
  'bench',
  'switch',
];
let failed = false;
const run = (p) =>
  new Promise((resolve) => {
    const child = spawn('npx', ['tsc', '-p', p], { stdio: 'inherit' });
    child.on('exit', (code) => {
      if (code !== 0) failed = true;
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} typecheck ${p}`);
      resolve();
    });
  });
const queue = [...projects];
await Promise.all(
  [0, 1].map(async () => {
    while (queue.length) await run(queue.shift());
  }),
);
process.exit(failed ? 1 : 0);
