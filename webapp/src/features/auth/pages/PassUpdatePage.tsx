import { PassUpdatePage } from './PasswordFlowPage';

export default PassUpdatePage;
