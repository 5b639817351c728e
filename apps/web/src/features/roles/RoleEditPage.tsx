import { api, FUNCTION_PERMISSIONS, MENU_MODULES } from '@tandem/contract';
import { useMenuLabels } from '../../app/pageNames';
import { Button, Card, Checkbox, Input, Space, Switch, Table, Form } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../i18n';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';

type Flags = { readable: boolean; writable: boolean; executable: boolean };
const NONE: Flags = { readable: false, writable: false, executable: false };

/** A role: its name, which modules it sees, and read/write/execute per page. */
export default function RoleEditPage() {
  const { t } = useTranslation();
  const labels = useMenuLabels();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const { id } = useParams();
  const roleId = id ? Number(id) : null;
  const existing = useApi(
    api.role.getRole,
    { params: { id: roleId ?? 0 } },
    { enabled: roleId !== null, staleTime: 0 },
  );
  const [name, setName] = useState('');
  const [require2fa, setRequire2fa] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [groups, setGroups] = useState<Record<number, boolean>>({});
  const [privs, setPrivs] = useState<Record<string, Flags>>({});

  useEffect(() => {
    const r = existing.data;
    if (!r) return;
    setName(r.role_name);
    setRequire2fa(r.require_2fa);
    setGroups(Object.fromEntries(r.group_privilegies.map((g) => [g.id, g.readable])));
    setPrivs(
      Object.fromEntries(
        r.role_privilegies.map((p) => [
          p.func_name,
          { readable: p.readable, writable: p.writable, executable: p.executable },
        ]),
      ),
    );
  }, [existing.data]);

  const rows = useMemo(
    () =>
      MENU_MODULES.flatMap((m) => [
        ...m.items
          .filter((i) => i.web_url !== '/tools/lawful_intercept')
          .map((i) => ({
            key: `${m.id}:${i.web_url}`,
            moduleId: m.id,
            module: labels.module(m.id, m.group_name),
            page: labels.item(m.group_name, i.display_name, i.web_url),
            url: i.web_url,
          })),
        // Function permissions of the module that are not pages (e.g. view cost and rate in reports).
        ...FUNCTION_PERMISSIONS.filter((f) => f.group_id === m.id).map((f) => ({
          key: `${m.id}:${f.func_name}`,
          moduleId: m.id,
          module: labels.module(m.id, m.group_name),
          page: f.display_name,
          url: f.func_name,
        })),
      ]).filter((r, idx, all) => all.findIndex((x) => x.url === r.url) === idx),
    [labels],
  );
  const setFlag = (url: string, flag: keyof Flags, v: boolean) =>
    setPrivs((p) => ({ ...p, [url]: { ...(p[url] ?? NONE), [flag]: v } }));
  const setAll = (flag: keyof Flags, v: boolean) =>
    setPrivs((p) => Object.fromEntries(rows.map((r) => [r.url, { ...(p[r.url] ?? NONE), [flag]: v }])));

  const save = async () => {
    setNameError(null);
    const body = {
      role_name: name.trim(),
      require_2fa: require2fa,
      group_privilegies: MENU_MODULES.map((m) => ({ id: m.id, readable: groups[m.id] ?? false })),
      role_privilegies: Object.entries(privs)
        .filter(([, f]) => f.readable || f.writable || f.executable)
        .map(([func_name, f]) => ({ func_name, ...f })),
    };
    const parsed = api.role.roleWrite.safeParse(body);
    if (!parsed.success) {
      setNameError(serverMessage(parsed.error.issues[0]?.message ?? 'invalidValue', [t('roles.name')]));
      return;
    }
    try {
      if (roleId) await call(api.role.updateRole, { params: { id: roleId }, body }, { errorMode: 'inline' });
      else await call(api.role.createRole, { body }, { errorMode: 'inline' });
      flash(t(roleId ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate('/configuration/roles');
    } catch (e) {
      if (e instanceof ApiError && e.errors?.role_name) setNameError(e.errors.role_name);
    }
  };

  if (roleId && existing.isLoading) return <Spinner />;
  const check = (url: string, flag: keyof Flags) => (
    <Checkbox
      checked={privs[url]?.[flag] ?? false}
      onChange={(e) => setFlag(url, flag, e.target.checked)}
      data-testid={`perm-${flag}-${url}`}
    />
  );
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t(roleId ? 'roles.editRole' : 'roles.newRole')}</h1>}
    >
      <Form.Item
        label={t('roles.name')}
        validateStatus={nameError ? 'error' : undefined}
        help={nameError}
        required
      >
        <Input
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ maxWidth: 360 }}
          data-testid="role-name"
        />
      </Form.Item>
      <Form.Item label={t('roles.require2fa')} extra={t('roles.require2faHelp')}>
        <Switch checked={require2fa} onChange={setRequire2fa} data-testid="role-require-2fa" />
      </Form.Item>
      <Space style={{ marginBottom: 8 }} wrap>
        <Button size="small" onClick={() => setAll('readable', true)}>
          {t('roles.allRead')}
        </Button>
        <Button size="small" onClick={() => setAll('writable', true)}>
          {t('roles.allWrite')}
        </Button>
        <Button size="small" onClick={() => setAll('executable', true)}>
          {t('roles.allExecute')}
        </Button>
        <Button
          size="small"
          onClick={() => {
            setPrivs({});
            setGroups({});
          }}
        >
          {t('common.clear')}
        </Button>
      </Space>
      <Table
        size="small"
        pagination={false}
        rowKey="key"
        dataSource={rows}
        scroll={{ y: 520 }}
        columns={[
          {
            title: t('roles.module'),
            dataIndex: 'module',
            width: 200,
            onCell: (r, i) => ({
              rowSpan:
                i !== undefined && i > 0 && rows[i - 1]?.moduleId === r.moduleId
                  ? 0
                  : rows.filter((x) => x.moduleId === r.moduleId).length,
            }),
            render: (_, r) => (
              <Checkbox
                checked={groups[r.moduleId] ?? false}
                onChange={(e) => setGroups((g) => ({ ...g, [r.moduleId]: e.target.checked }))}
                data-testid={`group-${r.module}`}
              >
                {r.module}
              </Checkbox>
            ),
          },
          { title: t('roles.page'), dataIndex: 'page' },
          { title: t('roles.read'), width: 80, render: (_, r) => check(r.url, 'readable') },
          { title: t('roles.write'), width: 80, render: (_, r) => check(r.url, 'writable') },
          { title: t('roles.execute'), width: 80, render: (_, r) => check(r.url, 'executable') },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Button type="primary" onClick={() => void save()} data-testid="role-save">
          {t('common.save')}
        </Button>
        <Button onClick={() => navigate('/configuration/roles')}>{t('common.cancel')}</Button>
      </Space>
    </Card>
  );
}
