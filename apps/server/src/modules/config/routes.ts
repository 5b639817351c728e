import { statfs } from 'node:fs/promises';
import fs from 'node:fs';
import {
  allows,
  ALWAYS_HIDDEN_URLS,
  api,
  ErrorCode,
  PROGRAM_NAME,
  VERSION,
  type SystemConfig,
} from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { AppError, forbidden, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { pick } from './settings';
import { patchSystemSettings } from './system-settings';

/** Upload kinds: allowed extensions and who may upload them. */
const UPLOADS: Record<string, { types: string[]; maxMb: number; func?: string }> = {
  avatar: { types: ['png', 'jpg', 'jpeg'], maxMb: 5 },
  logo: { types: ['png', 'jpg', 'jpeg', 'svg'], maxMb: 5, func: api.config.LOGIN_CONTENT_FUNC },
  favicon: { types: ['png', 'ico', 'svg'], maxMb: 1, func: api.config.LOGIN_CONTENT_FUNC },
  background: { types: ['png', 'jpg', 'jpeg'], maxMb: 5, func: api.config.LOGIN_CONTENT_FUNC },
};
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};
const BUILD_DATE = new Date().toISOString();
const SUBMENU_SORTABLE = ['id', 'display_name', 'web_url', 'ordering'] as const;

export function registerConfig(app: FastifyInstance, s: Services): void {
  implement(app, s, api.config.listSubmenus, async (ctx) => {
    const actor = actorOf(ctx);
    const rows = await s.db
      .selectFrom('sys_submenu as s')
      .innerJoin('main_menu as m', 'm.id', 's.main_menu_id')
      .select([
        's.id',
        's.main_menu_id',
        'm.group_name',
        's.display_name',
        's.web_url',
        's.ordering',
        's.sub',
      ])
      .orderBy('m.ordering')
      .orderBy('s.ordering')
      .execute();
    const items = rows
      .filter((r) => !ALWAYS_HIDDEN_URLS.includes(r.web_url))
      .map((r) => ({
        ...r,
        sub:
          r.sub === 'termination' || r.sub === 'origination'
            ? (r.sub as 'termination' | 'origination')
            : null,
        is_readable: actor.type === 'admin' && allows(actor.grants, r.web_url, 'read'),
        is_editable: actor.type === 'admin' && allows(actor.grants, r.web_url, 'write'),
      }));
    // The menu stays grouped by module, in menu order; order_by orders the items within each module
    // (the frame asks for display_name). The catalogue is small: sort and page it here.
    const q = ctx.query;
    const key =
      q.order_by && (SUBMENU_SORTABLE as readonly string[]).includes(q.order_by)
        ? (q.order_by as (typeof SUBMENU_SORTABLE)[number])
        : null;
    if (key) {
      const dir = q.order_dir === 'desc' ? -1 : 1;
      const rank = new Map<number, number>();
      for (const r of items) if (!rank.has(r.main_menu_id)) rank.set(r.main_menu_id, rank.size);
      items.sort(
        (a, b) =>
          rank.get(a.main_menu_id)! - rank.get(b.main_menu_id)! ||
          (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : a.id - b.id),
      );
    }
    return { items: items.slice(q.page * q.per_page, (q.page + 1) * q.per_page), total: items.length };
  });

  implement(app, s, api.config.listMainMenus, async () => {
    const items = await s.db
      .selectFrom('main_menu')
      .select(['id', 'group_name'])
      .orderBy('ordering')
      .execute();
    return { items, total: items.length };
  });

  // Every signed-in user's frame reads the frame subset; the whole settings are admin-only.
  const frameKeys = Object.keys(api.config.systemConfig.shape) as (keyof SystemConfig)[];
  implement(app, s, api.config.getSystemConfig, async () => pick(await s.settings.system(), frameKeys));
  implement(app, s, api.config.getSystemSettings, () => s.settings.system());
  implement(app, s, api.config.patchSystemConfig, async (ctx) => {
    await patchSystemSettings(s, actorOf(ctx), ctx.body);
    return null;
  });

  implement(app, s, api.config.getLoginBranding, async () => {
    const [b, sys] = await Promise.all([s.settings.branding(), s.settings.system()]);
    return {
      ...b,
      image_url: b.background_image_id ? `/api/config/export/public/${b.background_image_id}` : null,
      user_registration_enabled: sys.user_registration_enabled,
    };
  });
  implement(app, s, api.config.patchLoginBranding, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await s.settings.branding(trx);
      const after = { ...before, ...ctx.body };
      for (const k of ['logo_image_id', 'favicon_id', 'background_image_id'] as const) {
        const id = after[k];
        if (id && !(await trx.selectFrom('files').select('id').where('id', '=', id).executeTakeFirst()))
          throw invalidField(k, 'invalidValue', [k]);
      }
      await s.settings.set('login_branding', after, trx);
      await s.audit.record(trx, actorOf(ctx), 'login_content', 'login', 'update', before, after);
    });
    return null;
  });

  implement(app, s, api.config.importFile, async (ctx) => {
    const actor = actorOf(ctx);
    const part = await ctx.req.file();
    if (!part) throw invalidField('file', 'required', ['file']);
    const fields = part.fields as Record<string, { value?: string } | undefined>;
    const entity = fields.entity?.value ?? 'avatar';
    const kind = UPLOADS[entity];
    if (!kind) throw invalidField('entity', 'mustBeOneOf', ['entity', Object.keys(UPLOADS).join(', ')]);
    if (kind.func && !(actor.type === 'admin' && allows(actor.grants, kind.func, 'write'))) throw forbidden();
    const ext = (part.filename.split('.').pop() ?? '').toLowerCase();
    const format = (fields.format?.value ?? ext).toLowerCase();
    if (!kind.types.includes(ext) || !kind.types.includes(format))
      throw invalidField('file', 'fileTypeNotAllowed');
    const data = await part.toBuffer();
    if (data.length > kind.maxMb * 1024 * 1024) {
      throw new AppError(
        ErrorCode.validation,
        'fileTooBig',
        { size: (data.length / 1048576).toFixed(1), max: kind.maxMb },
        413,
      );
    }
    if (!looksLikeImage(data, ext)) throw invalidField('file', 'fileTypeNotAllowed');
    const row = await s.db
      .insertInto('files')
      .values({
        entity,
        format: ext,
        file_name: part.filename.slice(0, 200),
        mime: MIME[ext] ?? 'application/octet-stream',
        size_bytes: data.length,
        data,
        created_by: actor.user.user_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.audit.record(s.db, actor, 'file', row.id, 'upload', null, {
      entity,
      file_name: part.filename,
      size_bytes: data.length,
    });
    return { object_id: row.id };
  });

  implement(app, s, api.config.exportPublicFile, async (ctx) => {
    const f = await s.db
      .selectFrom('files')
      .select(['mime', 'data', 'file_name', 'is_public'])
      .where('id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!f || !f.is_public) throw notFound();
    ctx.reply
      .header('content-type', f.mime)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(Buffer.from(f.data));
    return null;
  });

  implement(app, s, api.config.health, async () => ({
    status: 'ok' as const,
    uptime_s: Math.round((Date.now() - s.startedAt.getTime()) / 1000),
  }));

  implement(app, s, api.config.getVersions, async () => ({
    items: [
      {
        program_name: PROGRAM_NAME,
        major_ver: VERSION,
        build_date: BUILD_DATE,
        start_time: s.startedAt.toISOString(),
      },
    ],
    total: 1,
  }));

  implement(app, s, api.config.watchdogStatus, async (ctx) => {
    const dir = fs.existsSync(s.config.dataDir) ? s.config.dataDir : process.cwd();
    const st = await statfs(dir);
    const total = st.blocks * st.bsize;
    const free = st.bavail * st.bsize;
    const used = total - free;
    return {
      server: ctx.params.server,
      disk: [
        {
          mount: dir,
          percent: total ? Math.round((free / total) * 1000) / 10 : 100,
          used_percent: total ? Math.round((used / total) * 1000) / 10 : 0,
          total_bytes: total,
          used_bytes: used,
        },
      ],
    };
  });
}

/** Checks magic bytes so a renamed file is not stored as an image. */
function looksLikeImage(data: Buffer, ext: string): boolean {
  if (ext === 'png')
    return data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (ext === 'jpg' || ext === 'jpeg') return data[0] === 0xff && data[1] === 0xd8;
  if (ext === 'ico') return data[0] === 0 && data[1] === 0 && data[2] === 1;
  if (ext === 'svg')
    return (
      /<svg[\s>]/i.test(data.subarray(0, 2000).toString('utf8')) && !/<script/i.test(data.toString('utf8'))
    );
  return false;
}
