import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

const { DOWNLOAD_METHODS, FILE_FORMATS, DEFAULT_RATE_MAIL_SUBJECT, DEFAULT_RATE_MAIL_CONTENT } =
  api.rateDelivery;

/** Template > Rate Email Template new and edit: name, download method, From, CC, subject, content with tags, file format. */
export default function RateEmailTemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = useMemo(
    () =>
      crudFormResource(api.rateDelivery.rateEmailTemplate, {
        key: 'rate-email-template',
        titleNew: 'rateDelivery.newTemplate',
        titleEdit: 'rateDelivery.editTemplate',
        listPath: '/template/rate_email_template',
        initial: {
          name: '',
          download_method: 'link',
          from_email: '',
          cc: [] as string[],
          subject: DEFAULT_RATE_MAIL_SUBJECT,
          content: DEFAULT_RATE_MAIL_CONTENT,
          file_format: 'csv',
        },
        tabs: [
          {
            key: 'general',
            title: 'rateDelivery.general',
            fields: [
              { name: 'name', label: 'rateDelivery.name', kind: 'text', required: true },
              {
                name: 'download_method',
                label: 'rateDelivery.downloadMethod',
                kind: 'select',
                options: DOWNLOAD_METHODS.map((m) => ({
                  value: m,
                  label: t(`rateDelivery.downloadMethods.${m}`),
                })),
              },
              {
                name: 'file_format',
                label: 'rateDelivery.fileFormat',
                kind: 'select',
                options: FILE_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() })),
              },
              { name: 'from_email', label: 'rateDelivery.from', kind: 'email', required: true },
              { name: 'cc', label: 'rateDelivery.cc', kind: 'tags' },
            ],
          },
          {
            key: 'message',
            title: 'rateDelivery.message',
            fields: [
              { name: 'subject', label: 'rateDelivery.subject', kind: 'text', required: true },
              {
                name: 'content',
                label: 'rateDelivery.content',
                kind: 'textarea',
                required: true,
                help: 'rateDelivery.tagsHelp',
              },
            ],
          },
        ],
      }),
    [t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
