import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../feedback';
import { useSignedIn } from '../session';
import { agentMenuEntries, referralLink } from './portalMenus';
import { TopMenu } from './TopMenu';

export function AgentMenu() {
  const { t } = useTranslation();
  return <TopMenu entries={agentMenuEntries(t)} testId="agent-menu" />;
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}

/** The agent's referral link box with its copy action. */
export function ReferralBox() {
  const { user } = useSignedIn();
  const { t } = useTranslation();
  const { flash } = useFeedback();
  if (!user.referal_key) return null;
  const link = referralLink(window.location.origin, user.referal_key);
  const copy = async () => {
    await copyText(link.href);
    flash(t('frame.linkCopied'));
  };
  return (
    <div className="referral-box">
      <Input
        size="small"
        readOnly
        value={link.display}
        style={{ width: 260 }}
        aria-label={t('frame.referralLink')}
        data-testid="referral-link"
      />
      <Tooltip title={t('frame.copyReferral')}>
        <Button
          size="small"
          icon={<CopyOutlined />}
          onClick={() => void copy()}
          data-testid="copy-referral"
          aria-label={t('frame.copyReferral')}
        />
      </Tooltip>
    </div>
  );
}
