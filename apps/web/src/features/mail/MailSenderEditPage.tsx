import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Configuration > Mail Sender new and edit. */
export default function MailSenderEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = useMemo(
    () =>
      crudFormResource(api.mail.mailSender, {
        key: 'mail-sender',
        titleNew: 'mail.newSender',
        titleEdit: 'mail.editSender',
        listPath: '/configuration/email_sender',
        initial: {
          name: '',
          server: '',
          port: 587,
          username: '',
          password: '',
          security: 'tls',
          address: '',
          is_default: false,
        },
        tabs: [
          {
            key: 'general',
            title: 'mail.senders',
            fields: [
              { name: 'name', label: 'mail.name', kind: 'text', required: true },
              { name: 'server', label: 'mail.server', kind: 'text', required: true },
              { name: 'port', label: 'mail.port', kind: 'number', required: true },
              {
                name: 'security',
                label: 'mail.security',
                kind: 'select',
                options: api.mail.SECURITY.map((s) => ({ value: s, label: t(`mail.securities.${s}`) })),
              },
              { name: 'username', label: 'mail.username', kind: 'text' },
              { name: 'password', label: 'mail.password', kind: 'password', help: 'mail.passwordKeep' },
              { name: 'address', label: 'mail.address', kind: 'email', required: true },
              { name: 'is_default', label: 'mail.isDefault', kind: 'switch' },
            ],
          },
        ],
      }),
    [t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
