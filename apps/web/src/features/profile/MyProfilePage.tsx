import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { api, AVATAR_TYPES } from '@tandem/contract';
import { useMenuLabels } from '../../app/pageNames';
import { Avatar, Breadcrumb, Button, Card, Checkbox, Form, Input, Select, Space, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../i18n';
import { call, upload } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSession, useSignedIn } from '../../app/session';
import { TwoFactorCard } from './TwoFactorCard';

interface ProfileForm {
  first_name: string;
  last_name: string;
  email: string;
  landing_page: string | null;
  is_show_daily_usage: boolean;
  is_daily_balance_notification: boolean;
  zero_balance_notice: boolean;
}

const NAME = /^[\p{L} ]*$/u;

/** My Profile (spec 01 sections 2 and 5). */
export default function MyProfilePage() {
  const { t } = useTranslation();
  const labels = useMenuLabels();
  const { user, submenus } = useSignedIn();
  const { reload } = useSession();
  const { flash } = useFeedback();
  const [form] = Form.useForm<ProfileForm>();
  const profile = useApi(api.user.getUser, { params: { id: user.user_id } }, { staleTime: 0 });
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [avatarPreview, setAvatarPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const values = Form.useWatch([], form) as ProfileForm | undefined;
  const isCarrier = user.user_type === 'client' || user.user_type === 'vendor';
  const isClientCompany = user.client?.client_type === 'client';

  const loaded: ProfileForm | null = useMemo(() => {
    const p = profile.data;
    return p
      ? {
          first_name: p.first_name,
          last_name: p.last_name,
          email: p.email,
          landing_page: p.landing_page,
          is_show_daily_usage: p.is_show_daily_usage,
          is_daily_balance_notification: p.is_daily_balance_notification,
          zero_balance_notice: p.zero_balance_notice,
        }
      : null;
  }, [profile.data]);
  useEffect(() => {
    if (loaded) form.setFieldsValue(loaded);
  }, [loaded, form]);

  const changed = Boolean(
    loaded &&
    values &&
    (avatarFile ||
      (Object.keys(loaded) as (keyof ProfileForm)[]).some(
        (k) => k in values && values[k] !== undefined && (values[k] ?? null) !== (loaded[k] ?? null),
      )),
  );
  const emailHasMany = (values?.email ?? '').includes(';');
  const canSubmit = Boolean(values?.first_name?.trim() && values?.email?.trim()) && !emailHasMany && changed;

  const landingOptions = useMemo(
    () =>
      submenus
        .filter((m) => m.is_readable)
        .map((m) => ({
          value: m.web_url,
          label: labels.path(m),
        })),
    [submenus, labels],
  );

  const submit = async (v: ProfileForm) => {
    setBusy(true);
    try {
      let avatarId: number | undefined;
      if (avatarFile) {
        const fd = new FormData();
        fd.append('entity', 'avatar');
        fd.append('format', avatarFile.name.split('.').pop()!.toLowerCase());
        fd.append('file', avatarFile);
        avatarId = (await upload(api.config.importFile.path, fd)).object_id;
      }
      await call(
        api.user.patchOwnUser,
        {
          body: {
            first_name: v.first_name.trim(),
            last_name: (v.last_name ?? '').trim(),
            email: v.email.trim(),
            ...(user.user_type === 'admin' ? { landing_page: v.landing_page ?? null } : {}),
            ...(avatarId ? { avatar_id: avatarId } : {}),
            ...(isCarrier ? { is_show_daily_usage: v.is_show_daily_usage } : {}),
          },
        },
        { errorMode: 'inline' },
      );
      flash(t('profile.profileUpdateSuccessfullyNew'));
      if (
        isCarrier &&
        isClientCompany &&
        loaded &&
        (v.is_daily_balance_notification !== loaded.is_daily_balance_notification ||
          v.zero_balance_notice !== loaded.zero_balance_notice ||
          v.is_show_daily_usage !== loaded.is_show_daily_usage)
      ) {
        await call(
          api.user.patchOwnUser,
          {
            body: {
              is_show_daily_usage: v.is_show_daily_usage,
              is_daily_balance_notification: v.is_daily_balance_notification,
              zero_balance_notice: v.zero_balance_notice,
            },
          },
          { errorMode: 'inline' },
        );
        flash(t('profile.notificationUpdatedSuccessfully'));
      }
      setAvatarFile(null);
      await profile.refetch();
      await reload();
    } finally {
      setBusy(false);
    }
  };

  const avatarSrc =
    avatarPreview ?? (user.avatar_id ? `/api/config/export/public/${user.avatar_id}` : undefined);
  return (
    <div style={{ maxWidth: 720 }}>
      <Breadcrumb
        items={[{ title: t('profile.title') }, { title: t('profile.breadcrumb') }]}
        style={{ marginBottom: 12 }}
      />
      <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('profile.title')}</h1>}>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item label={t('profile.avatar')} extra={t('profile.avatarTypes')}>
            <Space>
              <Avatar size={64} src={avatarSrc} icon={<UserOutlined />} data-testid="profile-avatar" />
              <Upload
                accept={AVATAR_TYPES.map((x) => '.' + x).join(',')}
                showUploadList={false}
                beforeUpload={(file) => {
                  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
                  if (!(AVATAR_TYPES as readonly string[]).includes(ext)) {
                    flash(t('upload.wrongType'), 'error');
                    return Upload.LIST_IGNORE;
                  }
                  setAvatarFile(file);
                  setAvatarPreview(URL.createObjectURL(file));
                  return false;
                }}
              >
                <Button icon={<UploadOutlined />} data-testid="profile-avatar-pick">
                  {t('profile.changeAvatar')}
                </Button>
              </Upload>
            </Space>
          </Form.Item>
          <Space.Compact block style={{ gap: 12 }}>
            <Form.Item
              name="first_name"
              label={t('auth.firstName')}
              style={{ flex: 1 }}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('common.required', { field: t('auth.firstName') }),
                },
                { pattern: NAME, message: t('profile.lettersAndSpaces') },
              ]}
            >
              <Input data-testid="profile-first-name" />
            </Form.Item>
            <Form.Item
              name="last_name"
              label={t('auth.lastName')}
              style={{ flex: 1 }}
              rules={[{ pattern: NAME, message: t('profile.lettersAndSpaces') }]}
            >
              <Input data-testid="profile-last-name" />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            name="email"
            label={t('auth.email')}
            validateStatus={emailHasMany ? 'warning' : undefined}
            help={
              emailHasMany ? (
                <span data-testid="profile-email-warning">{t('profile.onlyOneEmail')}</span>
              ) : undefined
            }
            rules={[
              { required: true, whitespace: true, message: t('common.required', { field: t('auth.email') }) },
              ...(emailHasMany
                ? []
                : [{ type: 'email' as const, message: serverMessage('invalidEmail', [t('auth.email')]) }]),
            ]}
          >
            <Input data-testid="profile-email" />
          </Form.Item>
          {user.user_type === 'admin' && (
            <Form.Item name="landing_page" label={t('profile.landingPage')}>
              <Select
                allowClear
                showSearch
                options={landingOptions}
                optionFilterProp="label"
                data-testid="profile-landing"
              />
            </Form.Item>
          )}
          {isCarrier && (
            <Form.Item label={t('profile.notifications')}>
              <Form.Item name="is_show_daily_usage" valuePropName="checked" noStyle>
                <Checkbox data-testid="profile-daily-usage">{t('profile.dailyUsage')}</Checkbox>
              </Form.Item>
              {isClientCompany && (
                <>
                  <Form.Item name="is_daily_balance_notification" valuePropName="checked" noStyle>
                    <Checkbox data-testid="profile-daily-balance">{t('profile.dailyBalance')}</Checkbox>
                  </Form.Item>
                  <Form.Item name="zero_balance_notice" valuePropName="checked" noStyle>
                    <Checkbox data-testid="profile-zero-balance">{t('profile.zeroBalance')}</Checkbox>
                  </Form.Item>
                </>
              )}
            </Form.Item>
          )}
          <Space>
            <Button
              type="primary"
              htmlType="submit"
              disabled={!canSubmit}
              loading={busy}
              data-testid="profile-submit"
            >
              {t('common.submit')}
            </Button>
            <Button
              disabled={!changed}
              onClick={() => {
                if (loaded) form.setFieldsValue(loaded);
                setAvatarFile(null);
                setAvatarPreview(null);
              }}
              data-testid="profile-reset"
            >
              {t('common.reset')}
            </Button>
          </Space>
        </Form>
      </Card>
      {profile.data && (
        <TwoFactorCard
          enabled={profile.data.totp_enabled}
          requiredByRole={user.two_factor_required}
          onChange={() => profile.refetch()}
        />
      )}
    </div>
  );
}
