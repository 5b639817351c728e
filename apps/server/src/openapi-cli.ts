import { buildOpenApi } from './openapi';

process.stdout.write(JSON.stringify(buildOpenApi(), null, 2) + '\n');
