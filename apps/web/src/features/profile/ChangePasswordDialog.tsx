import { api } from '@tandem/contract';
import { Form, Input, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { useSignedIn } from '../../app/session';
import { passwordRules } from '../auth/rules';

/**
 * Change password. Client and agent variant: current (checked live against the server), new and
 * confirmation, 8 to 15 characters. Admin variant: new and confirmation. Cancel clears all fields.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSignedIn();
  const { flash } = useFeedback();
  const [form] = Form.useForm();
  const [currentOk, setCurrentOkState] = useState<boolean | null>(null);
  // The validator reads the latest answer (a re-validation right after the check must not see the stale state).
  const currentOkRef = useRef<boolean | null>(null);
  const setCurrentOk = (v: boolean | null) => {
    currentOkRef.current = v;
    setCurrentOkState(v);
  };
  const checkSeq = useRef(0);
  const needsCurrent = user.user_type !== 'admin';

  useEffect(() => {
    if (!open) {
      form.resetFields();
      currentOkRef.current = null;
      setCurrentOkState(null);
    }
  }, [open, form]);

  // The error state holds until the server confirms the current password.
  const checkCurrent = async (password: string) => {
    const seq = ++checkSeq.current;
    setCurrentOk(false);
    if (!password) return;
    const r = await call(
      api.auth.checkPassword,
      { body: { password } },
      { errorMode: 'inline', quiet: true },
    ).catch(() => ({ valid: false }));
    if (seq === checkSeq.current) {
      setCurrentOk(r.valid);
      void form.validateFields(['current']);
    }
  };

  const submit = async () => {
    const v = (await form.validateFields()) as { passwd: string };
    await call(api.user.patchOwnUser, { body: { passwd: v.passwd } }, { errorMode: 'inline' });
    flash(t('profile.passwordUpdated'));
    onClose();
  };
  const cancel = () => {
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('frame.changePassword')}
      onOk={() => void submit()}
      onCancel={cancel}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'password-save', disabled: needsCurrent && currentOk !== true }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        {needsCurrent && (
          <Form.Item
            name="current"
            label={t('profile.currentPassword')}
            validateTrigger={['onChange', 'onBlur']}
            rules={[
              { required: true, message: t('common.required', { field: t('profile.currentPassword') }) },
              {
                validator: () =>
                  currentOkRef.current === false
                    ? Promise.reject(new Error(t('profile.incorrectCurrentPassword')))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input.Password
              data-testid="password-current"
              autoComplete="current-password"
              onChange={(e) => void checkCurrent(e.target.value)}
            />
          </Form.Item>
        )}
        <Form.Item name="passwd" label={t('auth.newPassword')} rules={passwordRules(t)}>
          <Input.Password data-testid="password-new" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth.confirmPassword')}
          dependencies={['passwd']}
          rules={[
            ...passwordRules(t),
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                v === getFieldValue('passwd')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('auth.passwordsDoNotMatch'))),
            }),
          ]}
        >
          <Input.Password data-testid="password-confirm" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
