import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Template > Rate Upload Template new and edit: name, delete existing, end date options, date format, has code deck, default effective date. */
export default function UploadTemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const resource = useMemo(
    () =>
      crudFormResource(api.rates.uploadTemplate, {
        key: 'rate-upload-template',
        titleNew: 'rates.newUploadTemplate',
        titleEdit: 'rates.editUploadTemplate',
        listPath: '/template/rate_upload_template',
        initial: {
          name: '',
          delete_existing: false,
          end_date_option: 'end_previous',
          effective_date_format: 'YYYY-MM-DD',
          has_code_deck: true,
          default_effective_days: 0,
          duplicate_mode: 'reject',
        },
        tabs: [
          {
            key: 'general',
            title: 'rates.general',
            fields: [
              { name: 'name', label: 'rates.name', kind: 'text', required: true },
              {
                name: 'duplicate_mode',
                label: 'rates.duplicateMode',
                kind: 'select',
                options: api.rates.DUPLICATE_MODES.map((m) => ({
                  value: m,
                  label: t(`rates.duplicateModes.${m}`),
                })),
              },
              { name: 'delete_existing', label: 'rates.deleteExisting', kind: 'switch' },
              {
                name: 'end_date_option',
                label: 'rates.endDateOption',
                kind: 'select',
                options: api.rates.END_DATE_OPTIONS.map((m) => ({
                  value: m,
                  label: t(`rates.endDateOptions.${m}`),
                })),
              },
              {
                name: 'effective_date_format',
                label: 'rates.effectiveDateFormat',
                kind: 'select',
                options: api.rates.DATE_FORMATS.map((f) => ({ value: f, label: f })),
              },
              { name: 'has_code_deck', label: 'rates.hasCodeDeck', kind: 'switch' },
              { name: 'default_effective_days', label: 'rates.defaultEffectiveDays', kind: 'number' },
            ],
          },
        ],
      }),
    [t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
