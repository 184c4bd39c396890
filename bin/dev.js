#!/usr/bin/env -S node --import tsx
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '' && process.env.FORCE_COLOR === undefined) {
  process.env.FORCE_COLOR = '0';
}

const { execute } = await import('@oclif/core');
await execute({ development: true, dir: import.meta.url });
