// /customers-center/trade: the customer's trade companies (staff with customers:management
// see every customer's): search, paging, add/edit in a dialog, delete.
import { useTranslation } from 'react-i18next';
import { KeywordSearch } from '@/shared/platform/components/KeywordSearch';
import { tradeCompaniesApi } from '../api/tradeCompanies';
import { tradeCompanyProblems } from '../model/validation';
import { TRADE_FIELDS } from '../model/fields';
import { RecordsPage } from '../components/RecordsPage';

const FILTER_KEYS = ['keyword'] as const;

export default function TradeCompaniesPage() {
  const { t } = useTranslation();
  return (
    <RecordsPage
      kind="trade"
      api={tradeCompaniesApi}
      fields={TRADE_FIELDS}
      check={tradeCompanyProblems}
      filterKeys={FILTER_KEYS}
      filters={(url) => (
        <KeywordSearch
          key={url.filters.keyword}
          initial={url.filters.keyword}
          placeholder={t('masterData.trade.keywordPlaceholder')}
          onSearch={(keyword) => url.setFilters({ keyword })}
          onReset={url.resetFilters}
        />
      )}
      columns={(label) => [
        { key: 'cn', label: label('companyNameCn'), render: (r) => r.companyNameCn },
        { key: 'en', label: label('companyNameEn'), render: (r) => r.companyNameEn },
        { key: 'uscc', label: label('uscc'), render: (r) => r.uscc },
        { key: 'customs', label: label('customsCode'), render: (r) => r.customsCode },
        { key: 'ciq', label: label('inspectionCode'), render: (r) => r.inspectionCode },
        { key: 'address', label: label('address'), render: (r) => r.address },
      ]}
      nameOf={(r) => r.companyNameCn}
    />
  );
}
