import path from 'node:path';
import { parseArgs } from 'node:util';
import { EmailSchema } from '@chapterwise/shared';
import { ConfigError, loadConfig, type Config } from '../../config.js';
import { openDatabase } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { localAddress, readLiveServer, type ServerFile } from '../../lib/server-file.js';
import { TokenService } from '../../lib/tokens.js';
import { changeAdminRole, type RoleAction, type RoleResult } from './users.roles.js';
import { USERS_ADMIN_COMMAND } from './users.roles.routes.js';

const HELP = `Makes an account an admin (admins write, schedule and publish blog posts), or a
regular account again, or lists the admins.

  npm run users:admin -- <email>            grant the admin role
  npm run users:admin -- <email> --revoke   take it back
  npm run users:admin -- --list             list the admins

The account must exist (register first). Uses DATA_DIR / DATABASE_URL / JWT_SECRET like the
server. With the embedded database and a server running on this DATA_DIR, the change goes
through that server (only one process may open DATA_DIR/pglite); otherwise it is written to
the database directly. It counts from the admin's next request: no new login is needed.`;

/** Through the running server: a one-minute operator token signed with JWT_SECRET. */
async function viaServer(
  server: ServerFile,
  config: Config,
  action: RoleAction,
  email: string | undefined,
): Promise<RoleResult> {
  const token = await new TokenService(config.jwtSecret).signOperator(USERS_ADMIN_COMMAND);
  const response = await fetch(
    `http://${localAddress(server.host)}:${server.port}/api/v1/users/roles`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action, ...(email ? { email } : {}) }),
    },
  );
  const answer = (await response.json()) as RoleResult & { errors?: { message: string } };
  if (!response.ok) throw new Error(answer.errors?.message ?? `server answered ${response.status}`);
  return answer;
}

async function direct(
  config: Config,
  action: RoleAction,
  email: string | undefined,
): Promise<RoleResult> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  try {
    await database.migrate();
    return await changeAdminRole(database.db, action, email);
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      revoke: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || (!values.list && positionals.length !== 1)) {
    console.log(HELP);
    return values.help ? 0 : 1;
  }
  const action: RoleAction = values.list ? 'list' : values.revoke ? 'revoke' : 'grant';
  let email: string | undefined;
  if (action !== 'list') {
    const parsed = EmailSchema.safeParse(positionals[0]);
    if (!parsed.success) {
      console.error(`"${positionals[0]}" is not an email address.`);
      return 1;
    }
    email = parsed.data;
  }
  const config = loadConfig();
  const server = config.databaseUrl ? null : readLiveServer(config.dataDir);
  const result = server
    ? await viaServer(server, config, action, email)
    : await direct(config, action, email);
  if (result.changed) {
    console.log(
      result.changed.role === 'admin'
        ? `${result.changed.email} (${result.changed.username}) is now an admin.`
        : `${result.changed.email} (${result.changed.username}) is no longer an admin.`,
    );
  }
  console.log(
    result.admins.length
      ? `Admins: ${result.admins.map((a) => a.email).join(', ')}`
      : 'There are no admins.',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof AppError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
