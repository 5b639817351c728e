import { Spin } from 'antd';

export const Spinner = () => (
  <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
    <Spin />
  </div>
);
