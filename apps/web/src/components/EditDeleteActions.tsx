import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** The edit and delete buttons of a table row; test ids are `edit-{testId}` and `delete-{testId}`. */
export function EditDeleteActions({
  onEdit,
  onDelete,
  testId,
}: {
  onEdit: () => void;
  onDelete: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Space size={2}>
      <Tooltip title={t('common.edit')}>
        <Button
          size="small"
          type="text"
          icon={<EditOutlined />}
          onClick={onEdit}
          data-testid={`edit-${testId}`}
          aria-label={t('common.edit')}
        />
      </Tooltip>
      <Tooltip title={t('common.delete')}>
        <Button
          size="small"
          type="text"
          danger
          icon={<DeleteOutlined />}
          onClick={onDelete}
          data-testid={`delete-${testId}`}
          aria-label={t('common.delete')}
        />
      </Tooltip>
    </Space>
  );
}
