import { api } from '@tandem/contract';
import { Tag } from 'antd';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from '../routing/shared';
import { BlockUpload } from './BlockUpload';
import './i18n';

type Row = z.output<typeof api.routingExtras.ocnBlockRow>;
const x = api.routingExtras;

const resource = crudListResource<Row>(x.ocnBlock, {
  key: 'stiocn-block-list',
  title: 'routingx.ocnList',
  rowKey: 'id',
  route: '/routing/STIOCN_Block_List',
  nameOf: (r) => r.value,
  columns: [
    {
      key: 'kind',
      title: 'routingx.kind',
      sortable: true,
      render: (r, t) => (
        <Tag color={r.kind === 'ocn' ? 'volcano' : 'geekblue'}>{t(`routingx.kinds.${r.kind}`)}</Tag>
      ),
    },
    { key: 'value', title: 'routingx.value', sortable: true, render: (r) => <code>{r.value}</code> },
    { key: 'note', title: 'routingx.note' },
    { key: 'created_by', title: 'routingx.createdBy' },
    { key: 'created_at', title: 'routingx.createdAt', sortable: true, render: (r) => when(r.created_at) },
  ],
  filters: [
    { name: 'value', title: 'routingx.value', kind: 'text' },
    {
      name: 'kind',
      title: 'routingx.kind',
      kind: 'select',
      options: [
        { value: 'ocn', label: 'OCN' },
        { value: 'origid', label: 'Origid' },
      ],
    },
  ],
  defaultSort: { by: 'value', dir: 'asc' },
});

/** Routing > STIOCN Block List: STIR/SHAKEN originating carriers whose calls are refused (403 ocn_blocked). */
export default function OcnBlockListPage() {
  return (
    <ResourceList
      resource={resource}
      toolbar={
        <BlockUpload
          url={x.uploadOcnBlocks.path}
          list={x.ocnBlock.list}
          expectedHeaders={['value', 'kind', 'note']}
          help="routingx.uploadHelpOcn"
          testId="ocn-upload"
        />
      }
    />
  );
}
