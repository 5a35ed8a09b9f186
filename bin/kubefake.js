#!/usr/bin/env node
// The `kubefake` command. The Node.js check comes first and the CLI is imported only after it,
// so an unsupported Node gets one sentence instead of a crash inside a dependency.
import nodeSupport from './node-support.cjs';

nodeSupport.exitIfUnsupported();

import('../dist/cli.js')
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => process.exit(code),
    (err) => {
      // Library errors already start with `kubefake: `; never print the prefix twice.
      console.error(String(err instanceof Error ? err.message : err).replace(/^(kubefake: )?/, 'kubefake: '));
      process.exit(1);
    },
  );
