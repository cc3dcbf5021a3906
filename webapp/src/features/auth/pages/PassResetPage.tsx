import { PassResetPage } from './PasswordFlowPage';

export default PassResetPage;
