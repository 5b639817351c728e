import { api } from '@tandem/contract';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

const resource = crudFormResource(api.rates.codeDeck, {
  key: 'code-deck',
  titleNew: 'rates.newCodeDeck',
  titleEdit: 'rates.editCodeDeck',
  listPath: '/configuration/code_deck',
  initial: { name: '', is_default: false },
  tabs: [
    {
      key: 'general',
      title: 'rates.general',
      fields: [
        { name: 'name', label: 'rates.name', kind: 'text', required: true },
        { name: 'is_default', label: 'rates.isDefault', kind: 'switch' },
      ],
    },
  ],
});

export default function CodeDeckEditPage() {
  const { id } = useParams();
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
