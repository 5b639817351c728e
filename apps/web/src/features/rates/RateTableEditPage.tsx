import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import './i18n';

/** Routing > Rate Table new and edit (editing_ratetable/{id}): every field of spec 02 "Rate table". */
export default function RateTableEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const decks = useApi(
    api.rates.codeDeck.list,
    { query: { per_page: 9999, order_by: 'name' } },
    { callOptions: { errorMode: 'inline' } },
  );
  const resource = useMemo(
    () =>
      crudFormResource(api.rates.rateTable, {
        key: 'rate-table',
        titleNew: 'rates.newRateTable',
        titleEdit: 'rates.editRateTable',
        listPath: '/routing/rate_table',
        initial: {
          name: '',
          code_deck_id: null,
          currency: 'USD',
          billing_method: 'dnis',
          rate_type: 'a_z',
          require_setup_fee: false,
          require_local_rate: false,
          jurisdiction_country: '',
          decimal_places: 4,
        },
        tabs: [
          {
            key: 'general',
            title: 'rates.general',
            fields: [
              { name: 'name', label: 'rates.name', kind: 'text', required: true },
              {
                name: 'rate_type',
                label: 'rates.rateType',
                kind: 'select',
                options: api.rates.RATE_TYPES.map((v) => ({ value: v, label: t(`rates.rateTypes.${v}`) })),
              },
              {
                name: 'code_deck_id',
                label: 'rates.codeDeck',
                kind: 'select',
                options: [
                  { value: null as unknown as number, label: t('rates.noCodeDeck') },
                  ...(decks.data?.items ?? []).map((d) => ({ value: d.code_deck_id, label: d.name })),
                ],
              },
              { name: 'currency', label: 'rates.currency', kind: 'text' },
              {
                name: 'billing_method',
                label: 'rates.billingMethod',
                kind: 'select',
                options: api.rates.BILLING_METHODS.map((v) => ({
                  value: v,
                  label: t(`rates.billingMethods.${v}`),
                })),
              },
              { name: 'decimal_places', label: 'rates.decimalPlaces', kind: 'number' },
              { name: 'require_setup_fee', label: 'rates.requireSetupFee', kind: 'switch' },
              {
                name: 'require_local_rate',
                label: 'rates.requireLocalRate',
                kind: 'switch',
                visible: (v) => v.rate_type === 'us_jurisdictional',
              },
              {
                name: 'jurisdiction_country',
                label: 'rates.jurisdictionCountry',
                kind: 'text',
                visible: (v) => v.rate_type !== 'a_z',
              },
            ],
          },
        ],
      }),
    [decks.data, t],
  );
  if (decks.isLoading) return <Spinner />;
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
